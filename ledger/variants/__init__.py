"""The variant registry: rules objects looked up by name (``find_variant``).

>>> find_variant("burraco").variant
'burraco'
>>> find_variant("poker")
Traceback (most recent call last):
...
KeyError: "unknown variant 'poker' (known: burraco, gin, ramino, ramino51, scala40)"
"""

from __future__ import annotations

from importlib import import_module

from ledger.variants.base import Rules

#: variant name -> "module:Class" of its rules object
REGISTRY: dict[str, str] = {
    "burraco": "ledger.variants.burraco:BurracoRules",
    "scala40": "ledger.variants.scala40:Scala40Rules",
    "ramino51": "ledger.variants.ramino51:Ramino51Rules",
    "ramino": "ledger.variants.ramino:RaminoRules",
    "gin": "ledger.variants.gin:GinRules",
}


def find_variant(name: str) -> type[Rules]:
    """The rules class of a variant; raises :class:`KeyError` for an unknown name."""
    try:
        target = REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown variant {name!r} (known: {', '.join(sorted(REGISTRY))})") from None
    module, _, cls = target.partition(":")
    return getattr(import_module(module), cls)


__all__ = ["REGISTRY", "Rules", "find_variant"]
