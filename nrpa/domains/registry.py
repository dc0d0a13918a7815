"""The domains the harness knows, by the name users type (``domain=samegame``): a table of
adapter classes, each carrying its options class (``options_class``). A domain's options and
adapter live beside its kernel (``nrpa/domains/NAME_adapter.py``; what an adapter has:
``nrpa.domains.adapter``). The options classes are importable from here too.
"""

from __future__ import annotations

from dataclasses import asdict

from nrpa.domains.bus_adapter import BusDomain, BusOptions
from nrpa.domains.knapsack_adapter import KnapsackDomain, KnapsackOptions
from nrpa.domains.maximum_adapter import MaximumDomain, MaximumOptions
from nrpa.domains.morpion_adapter import MorpionDomain, MorpionOptions
from nrpa.domains.samegame_adapter import SameGameDomain, SameGameOptions
from nrpa.domains.tsptw_adapter import TsptwDomain, TsptwOptions
from nrpa.domains.weakschur_adapter import WeakSchurDomain, WeakSchurOptions
from nrpa.errors import InputError

__all__ = [
    "DOMAINS", "make_domain",
    "BusDomain", "BusOptions", "KnapsackDomain", "KnapsackOptions", "MaximumDomain", "MaximumOptions",
    "MorpionDomain", "MorpionOptions", "SameGameDomain", "SameGameOptions", "TsptwDomain", "TsptwOptions",
    "WeakSchurDomain", "WeakSchurOptions",
]

# name -> adapter class; its options class is the adapter's ``options_class``
DOMAINS = {"samegame": SameGameDomain, "weakschur": WeakSchurDomain, "maximum": MaximumDomain,
           "tsptw": TsptwDomain, "bus": BusDomain, "morpion": MorpionDomain, "knapsack": KnapsackDomain}


def make_domain(options):
    """The adapter for ``options`` (an options dataclass or a mapping with a ``name`` key);
    InputError naming a bad domain, option or file before any work. GNRPA's bias is not
    built here: the search does it (``nrpa.bias.bias_for``)."""
    values = dict(options) if not hasattr(options, "__dataclass_fields__") else asdict(options)
    name = values.get("name")
    if name not in DOMAINS:
        raise InputError(f"domain={name!r} is not valid: choose one of {', '.join(DOMAINS)}")
    domain_class = DOMAINS[name]
    known = domain_class.options_class.__dataclass_fields__
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise InputError(
            f"unknown option(s) domain.{', domain.'.join(unknown)} for domain={name}: valid are "
            f"{', '.join('domain.' + key for key in known if key != 'name')}"
        )
    return domain_class(domain_class.options_class(**values))
