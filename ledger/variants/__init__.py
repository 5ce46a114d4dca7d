"""The variant registry: rules objects looked up by name (``find_variant``).

>>> find_variant("burraco").variant
'burraco'
>>> find_variant("poker")
Traceback (most recent call last):
...
KeyError: "unknown variant 'poker' (known: burraco, gin, ramino, ramino51, scala40)"
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ledger import catalog
from ledger.variants.base import Rules


class _Registry(Mapping[str, str | type]):
    """variant name -> ``"module:Class"`` of its rules object, read from the catalog."""

    def __getitem__(self, name: str) -> str | type:
        return catalog.CATALOG[name].rules

    def __iter__(self) -> Iterator[str]:
        return iter(catalog.CATALOG)

    def __len__(self) -> int:
        return len(catalog.CATALOG)


#: variant name -> "module:Class" of its rules object (or the class: :mod:`ledger.catalog`)
REGISTRY: Mapping[str, str | type] = _Registry()


def find_variant(name: str) -> type[Rules]:
    """The rules class of a variant; raises :class:`KeyError` for an unknown name."""
    rules: type[Rules] = catalog.load(catalog.entry(name).rules)
    return rules


__all__ = ["REGISTRY", "Rules", "find_variant"]
