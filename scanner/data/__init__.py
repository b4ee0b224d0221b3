"""Data the scanner ships (HIPIFY's name table, the hermetic prelude headers); read with importlib.resources."""
