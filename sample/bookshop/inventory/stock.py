"""Stock levels and reservations, with retry on concurrent updates."""
import time

from .catalogue import Catalogue, normalize_isbn


class OutOfStock(Exception):
    """Raised when a reservation asks for more copies than are left."""


class StockLedger:
    """Copies on hand per ISBN; reservations hold copies until checkout."""

    def __init__(self, catalogue: Catalogue, max_retries: int = 3):
        self.catalogue = catalogue
        self.on_hand = {}
        self.reserved = {}
        self.max_retries = max_retries

    def receive(self, isbn: str, copies: int) -> None:
        key = normalize_isbn(isbn)
        self.catalogue.find_by_isbn(key)
        self.on_hand[key] = self.on_hand.get(key, 0) + copies

    def available(self, isbn: str) -> int:
        key = normalize_isbn(isbn)
        return self.on_hand.get(key, 0) - self.reserved.get(key, 0)

    def reserve(self, isbn: str, copies: int) -> None:
        """Hold copies for a basket, retrying when another update races us."""
        for attempt in range(self.max_retries):
            if self._try_reserve(isbn, copies):
                return
            time.sleep(0.01 * (2 ** attempt))
        raise OutOfStock(isbn)

    def _try_reserve(self, isbn: str, copies: int) -> bool:
        key = normalize_isbn(isbn)
        if self.available(key) < copies:
            return False
        self.reserved[key] = self.reserved.get(key, 0) + copies
        return True
