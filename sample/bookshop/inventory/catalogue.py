"""The catalogue of books the shop can sell."""
from dataclasses import dataclass, field


@dataclass
class Book:
    """One title, identified by its ISBN."""

    isbn: str
    title: str
    author: str
    price_cents: int
    tags: list = field(default_factory=list)

    def display_name(self) -> str:
        """Title and author, as shown on receipts."""
        return f"{self.title} ({self.author})"


class Catalogue:
    """All known books, searchable by ISBN or by words of the title."""

    def __init__(self):
        self._books = {}

    def add(self, book: Book) -> None:
        if book.isbn in self._books:
            raise ValueError(f"duplicate ISBN {book.isbn}")
        self._books[book.isbn] = book

    def find_by_isbn(self, isbn: str) -> Book:
        """Return the book with this ISBN or raise KeyError."""
        normalized = normalize_isbn(isbn)
        return self._books[normalized]

    def search_title(self, words: str) -> list:
        wanted = words.lower().split()
        return [b for b in self._books.values() if all(w in b.title.lower() for w in wanted)]


def normalize_isbn(isbn: str) -> str:
    """Strip dashes and spaces so '978-0-13' and '978013' compare equal."""
    return isbn.replace("-", "").replace(" ", "")
