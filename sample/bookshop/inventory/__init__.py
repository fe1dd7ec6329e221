"""Inventory of books: catalogue, stock levels and reservations."""
from .catalogue import Book, Catalogue
from .stock import StockLedger
