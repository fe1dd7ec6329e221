"""Invoices: line items, VAT and discount codes."""
from inventory.catalogue import Book

VAT_RATE = 0.06


class DiscountError(ValueError):
    pass


class Invoice:
    """A customer's bill for one checkout."""

    def __init__(self, customer: str):
        self.customer = customer
        self.lines = []
        self.discount_percent = 0

    def add_line(self, book: Book, quantity: int) -> None:
        self.lines.append((book, quantity))

    def apply_discount(self, code: str) -> None:
        """Apply a discount code such as 'SPRING10' (10 percent off)."""
        percent = parse_discount_code(code)
        if percent > 50:
            raise DiscountError(f"discount {percent}% is above the 50% limit")
        self.discount_percent = percent

    def subtotal_cents(self) -> int:
        return sum(book.price_cents * quantity for book, quantity in self.lines)

    def total_cents(self) -> int:
        """Subtotal minus discount, plus VAT, rounded to whole cents."""
        discounted = self.subtotal_cents() * (100 - self.discount_percent) / 100
        return round(discounted * (1 + VAT_RATE))


def parse_discount_code(code: str) -> int:
    digits = "".join(ch for ch in code if ch.isdigit())
    if not digits:
        raise DiscountError(f"no percentage in discount code {code!r}")
    return int(digits)
