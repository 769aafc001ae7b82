"""
The mapper registry: pluggy hooks, lazy entry-point discovery, name normalisation.

Built-in backends and third-party plugins are found the same way: through
the ``localdata_errors`` entry-point group.  Discovery happens on first use,
once, under a lock; a plugin that fails to load or misbehaves is logged once
and left out, and the rest keep working.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Final, NamedTuple

import pluggy

from localdata_errors._backends import canonical_name
from localdata_errors.mapper import DatabaseErrorMapper, ErrorRefiner
from localdata_errors.redact import redact

__all__ = [
    "ENTRY_POINT_GROUP",
    "Claim",
    "ErrorMapperRegistry",
    "MapperInfo",
    "NoSuchMapperError",
    "hookimpl",
    "hookspec",
    "normalize_db_type",
]

ENTRY_POINT_GROUP: Final = "localdata_errors"
PROJECT_NAME: Final = "localdata_errors"
DISTRIBUTION: Final = "localdata-errors"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)

LOGGER_NAME: Final = "localdata_errors"


class _HookSpecs:
    """The hooks a plugin may implement."""

    @hookspec
    def localdata_errors_mappers(self) -> Sequence[DatabaseErrorMapper]:  # type: ignore[empty-body]
        """
        Return the mappers this plugin contributes.

        Returns:
            A sequence of `DatabaseErrorMapper`
            instances, each with a distinct ``name``.
        """


class NoSuchMapperError(LookupError):
    """
    Raised by `ErrorMapperRegistry.get_mapper` for a name nobody registered.
    """


class Claim(NamedTuple):
    """
    Who claims an exception class (`ErrorMapperRegistry.claim_for_type`).

    Attributes:
        name: The backend's canonical name.
        mapper: Its mapper.
        driver: The top-level module of the claimed class (``psycopg``).
    """

    name: str
    mapper: DatabaseErrorMapper
    driver: str


class MapperInfo(NamedTuple):
    """
    One row of `ErrorMapperRegistry.list_mappers`.

    Args:
        name: The canonical name.
        aliases: Other names that resolve to it.
        driver_modules: The driver modules it detects.
        source: ``"entry point"`` or ``"register()"``.
        distribution: The distribution that provided it (``None`` for
            programmatic registration).
        version: That distribution's version.
        mapper: The mapper itself.
    """

    name: str
    aliases: tuple[str, ...]
    driver_modules: tuple[str, ...]
    source: str
    distribution: str | None
    version: str | None
    mapper: DatabaseErrorMapper


# Exception classes are few; the bound only guards against classes made at run time.
_TYPE_CACHE_LIMIT: Final = 4096

_warned: set[str] = set()
_warned_lock = threading.Lock()


#: How much of a warning is kept: it is cut to this, then masked.
WARNING_LIMIT: Final = 2000


def warn_once(key: str, msg: str, *args: object) -> None:
    """
    Log *msg* at WARNING the first time *key* is seen, at DEBUG afterwards.

    The message is formatted here, cut to `WARNING_LIMIT` characters and
    masked with `localdata_errors.redact.redact` before it is logged: its
    arguments are often exceptions, whose text may echo a statement with a
    password in it, and a handler would otherwise format them unmasked.
    """
    # logging is imported on the first warning, not with the package: most
    # processes never need it, and it is among the costlier standard modules.
    import logging  # noqa: PLC0415

    with _warned_lock:
        first = key not in _warned
        _warned.add(key)
    logger = logging.getLogger(LOGGER_NAME)
    if not logger.handlers:
        # A library logs; the application decides where it goes.
        logger.addHandler(logging.NullHandler())
    level = logging.WARNING if first else logging.DEBUG
    if logger.isEnabledFor(level):
        logger.log(level, "%s", redact(_format(msg, args), limit=WARNING_LIMIT))


class _Masked:
    """An argument shown masked: its text is masked before %r escapes its quotes."""

    __slots__ = ("_repr", "_str")

    def __init__(self, value: object) -> None:
        try:
            text = str(value)
        except Exception:  # noqa: BLE001 - an unprintable value is shown by its type
            text = f"<{type(value).__name__}>"
        self._str = redact(text, limit=WARNING_LIMIT)
        if isinstance(value, BaseException):
            self._repr = f"{type(value).__name__}({self._str!r})"
        elif isinstance(value, str):
            self._repr = repr(self._str)
        else:
            try:
                self._repr = redact(repr(value), limit=WARNING_LIMIT)
            except Exception:  # noqa: BLE001 - as above
                self._repr = f"<{type(value).__name__}>"

    def __str__(self) -> str:
        return self._str

    def __repr__(self) -> str:
        return self._repr


def _format(msg: str, args: tuple[object, ...]) -> str:
    # Numbers keep their type for %d; anything else is masked on its own first.
    shown = tuple(a if a is None or isinstance(a, int | float) else _Masked(a) for a in args)
    try:
        return msg % shown if shown else msg
    except Exception:  # noqa: BLE001 - a message that does not format is logged bare
        return f"{msg} (arguments could not be rendered)"


def normalize_db_type(db_type: object) -> str:
    """
    Normalise a backend name: ``"PostgreSQL"``, ``"postgresql+psycopg"`` and
    ``"postgres"`` all become ``"postgresql"``.

    Args:
        db_type: Any value; non-strings normalise to ``"generic"``.

    Returns:
        The lower-case canonical name (unknown names are returned lower-cased,
        for the registry to resolve against plugin aliases).
    """
    return canonical_name(db_type)


def _by_name(ep: Any) -> str:
    """Sort key of entry points: by name; broken metadata sorts first and fails to load."""
    try:
        return str(ep.name)
    except Exception:  # noqa: BLE001 - a broken entry point is reported when loaded
        return ""


def _names_of(value: object, what: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, tuple | list | frozenset | set):
        raise TypeError(f"{what} must be a tuple of strings, not {type(value).__name__}")
    if not all(isinstance(item, str) for item in value):
        raise TypeError(f"{what} must hold strings only")
    return tuple(value)


def _row_of(
    mapper: object, source: str, dist_name: str | None, dist_version: str | None
) -> MapperInfo:
    """The mapper's registry row; raises on anything malformed."""
    if not isinstance(mapper, DatabaseErrorMapper):
        raise TypeError(f"{type(mapper).__name__} is not a DatabaseErrorMapper")
    name = mapper.name
    if not isinstance(name, str) or not name.strip():
        raise TypeError("its name must be a non-empty string")
    canonical = normalize_db_type(name)
    if canonical == "generic":
        raise ValueError("the name 'generic' is reserved for the keyword fallback")
    aliases = _names_of(mapper.aliases, "aliases")
    modules = _names_of(mapper.driver_modules, "driver_modules")
    if not callable(getattr(mapper, "map_error", None)):
        raise TypeError("map_error is not callable")
    if isinstance(mapper, ErrorRefiner):
        refines = _names_of(mapper.refines, "refines")
        if not refines or canonical in {normalize_db_type(base) for base in refines}:
            raise ValueError("a refiner names the other backends it refines")
    return MapperInfo(canonical, aliases, modules, source, dist_name, dist_version, mapper)


def _checked(
    mapper: object,
    source: str,
    dist_name: str | None,
    dist_version: str | None,
    label: str,
) -> MapperInfo | None:
    """The mapper's registry row, or `None` (logged) when it is malformed."""
    try:
        return _row_of(mapper, source, dist_name, dist_version)
    except Exception as exc:  # noqa: BLE001 - anything malformed is left out, alone
        warn_once(
            f"type:{label}:{type(mapper).__name__}",
            "plugin %s returned a malformed mapper (%s); ignored",
            label,
            exc,
        )
        return None


class ErrorMapperRegistry:
    """
    The process-wide registry of mappers.

    Every method is a class method, so LocalData's calling style keeps working:
    ``ErrorMapperRegistry.register("mydb", MyMapper())``.  All state is behind
    one re-entrant lock; reads after discovery take a snapshot.
    """

    _lock: ClassVar[threading.RLock] = threading.RLock()
    _discovered: ClassVar[bool] = False
    _entries: ClassVar[dict[str, MapperInfo]] = {}
    # Snapshots rebuilt on every change, read without the lock.
    _by_name: ClassVar[dict[str, DatabaseErrorMapper]] = {}
    _by_module: ClassVar[dict[str, str]] = {}
    # Base backend name -> the refiners of its answers, in registration order.
    _refiners: ClassVar[dict[str, tuple[ErrorRefiner, ...]]] = {}
    _by_type: ClassVar[dict[type, Claim | None]] = {}
    _plugin_manager: ClassVar[pluggy.PluginManager | None] = None

    # -- discovery -------------------------------------------------------------

    @classmethod
    def plugin_manager(cls) -> pluggy.PluginManager:
        """The pluggy manager that holds the loaded plugins (created on demand)."""
        with cls._lock:
            if cls._plugin_manager is None:
                pm = pluggy.PluginManager(PROJECT_NAME)
                pm.add_hookspecs(_HookSpecs)
                cls._plugin_manager = pm
            return cls._plugin_manager

    @classmethod
    def _is_discovered(cls) -> bool:
        # A call, not the attribute: the check under the lock below must read
        # it again (another thread may have finished), which a type checker
        # would otherwise call unreachable.
        return cls._discovered

    @classmethod
    def _ensure_discovered(cls) -> None:
        if cls._discovered:
            return
        with cls._lock:
            # Checked again under the lock: another thread may have finished first.
            if cls._is_discovered():
                return
            try:
                cls._discover()
            finally:
                # The tables first, the flag last: a thread that sees the flag
                # without the lock must find the tables complete.
                cls._rebuild()
                cls._discovered = True

    @classmethod
    def _discover(cls) -> None:
        # The built-in backends first, registered in code: they are there
        # however the package is run (a source tree, a zip, a frozen app),
        # and a third-party plugin that claims a built-in's name is the
        # duplicate that gets left out.
        from localdata_errors.backends import builtin_mappers  # noqa: PLC0415 - a cycle

        for mapper in builtin_mappers():
            cls._add(mapper, "built-in", DISTRIBUTION, None, "built-in")
        # Imported here, not at module level: importlib.metadata costs more to
        # import than the rest of the package, and only discovery needs it.
        import importlib.metadata  # noqa: PLC0415

        pm = cls.plugin_manager()
        try:
            eps: Iterable[Any] = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
        except Exception as exc:  # noqa: BLE001 - broken metadata must not break classification
            warn_once("entry_points", "cannot read entry points: %r", exc)
            eps = ()
        for ep in sorted(eps, key=_by_name):
            ep_name = _by_name(ep)
            try:
                dist = getattr(ep, "dist", None)
                dist_name = getattr(dist, "name", None)
                dist_version = getattr(dist, "version", None)
                plugin = ep.load()
            except Exception as exc:  # noqa: BLE001 - a broken plugin is isolated
                warn_once(f"load:{ep_name}", "plugin %r failed to load: %r", ep_name, exc)
                continue
            if pm.is_registered(plugin):
                continue
            try:
                pm.register(plugin, name=f"{ep_name}@{dist_name}")
            except Exception as exc:  # noqa: BLE001 - e.g. a hookimpl with a wrong signature
                warn_once(f"register:{ep_name}", "plugin %r rejected: %r", ep_name, exc)
                continue
            try:
                # A hook implementation whose name matches no hook (a typo)
                # would never be called: say so, and leave the plugin out.
                pm.check_pending()
            except Exception as exc:  # noqa: BLE001 - pluggy's PluginValidationError
                pm.unregister(plugin)
                warn_once(f"pending:{ep_name}", "plugin %r rejected: %r", ep_name, exc)
                continue
            cls._collect(plugin, dist_name, dist_version)

    @classmethod
    def _collect(cls, plugin: object, dist_name: str | None, dist_version: str | None) -> None:
        # Call each plugin's hook on its own, so one that raises spoils only itself.
        pm = cls.plugin_manager()
        caller = pm.subset_hook_caller(
            "localdata_errors_mappers",
            remove_plugins=[p for p in pm.get_plugins() if p is not plugin],
        )
        label = pm.get_name(plugin) or repr(plugin)
        try:
            results: list[Any] = caller()
        except Exception as exc:  # noqa: BLE001 - a raising plugin is isolated
            warn_once(f"hook:{label}", "plugin %s raised: %r", label, exc)
            return
        for result in results:
            mappers = result if isinstance(result, list | tuple) else [result]
            for mapper in mappers:
                cls._add(mapper, "entry point", dist_name, dist_version, label)

    @classmethod
    def _add(
        cls,
        mapper: object,
        source: str,
        dist_name: str | None,
        dist_version: str | None,
        label: str,
    ) -> None:
        """Check one mapper on its own and file it; a malformed one is left out alone."""
        info = _checked(mapper, source, dist_name, dist_version, label)
        if info is None:
            return
        if info.name in cls._entries:
            warn_once(
                f"dup:{info.name}:{label}",
                "plugin %s registers %r again; the first registration (%s) is kept",
                label,
                info.name,
                cls._entries[info.name].distribution,
            )
            return
        cls._entries[info.name] = info

    @classmethod
    def _rebuild(cls) -> None:
        by_name: dict[str, DatabaseErrorMapper] = {}
        by_module: dict[str, str] = {}
        refiners: dict[str, list[ErrorRefiner]] = {}
        for name, info in cls._entries.items():
            by_name[name] = info.mapper
        for name, info in cls._entries.items():
            for alias in info.aliases:
                by_name.setdefault(normalize_db_type(alias), info.mapper)
            for module in info.driver_modules:
                by_module.setdefault(module, name)
            if isinstance(info.mapper, ErrorRefiner):
                for base in info.mapper.refines:
                    refiners.setdefault(normalize_db_type(base), []).append(info.mapper)
        cls._by_name = by_name
        cls._by_module = by_module
        cls._refiners = {base: tuple(found) for base, found in refiners.items()}
        cls._by_type = {}

    # -- public API ------------------------------------------------------------

    @classmethod
    def register(cls, name: str, mapper: DatabaseErrorMapper) -> None:
        """
        Register *mapper* under *name*, replacing any mapper of that name.

        Args:
            name: The backend name; normalised like ``db_type``.
            mapper: A `DatabaseErrorMapper`.

        Raises:
            TypeError: *mapper* is not a ``DatabaseErrorMapper``.
            ValueError: *name* is empty or ``"generic"`` (the fallback is fixed).
        """
        if not isinstance(mapper, DatabaseErrorMapper):
            raise TypeError(f"expected a DatabaseErrorMapper, got {type(mapper).__name__}")
        key = normalize_db_type(name)
        if key == "generic":
            raise ValueError("the name 'generic' is reserved for the keyword fallback")
        cls._ensure_discovered()
        with cls._lock:
            info = _row_of(mapper, "register()", None, None)
            cls._entries[key] = info._replace(name=key)
            cls._rebuild()

    @classmethod
    def unregister(cls, name: str) -> DatabaseErrorMapper | None:
        """
        Remove the mapper registered under *name*.

        Returns:
            The removed mapper, or ``None`` if there was none.
        """
        cls._ensure_discovered()
        with cls._lock:
            info = cls._entries.pop(normalize_db_type(name), None)
            cls._rebuild()
        return info.mapper if info else None

    @classmethod
    def get_mapper(cls, name: str) -> DatabaseErrorMapper:
        """
        Return the mapper for *name* (or one of its aliases).

        Raises:
            NoSuchMapperError: Nothing is registered under that name.
        """
        cls._ensure_discovered()
        key = normalize_db_type(name)
        mapper = cls._by_name.get(key)
        if mapper is None:
            raise NoSuchMapperError(f"{ENTRY_POINT_GROUP}:{key}")
        return mapper

    @classmethod
    def get_or_default(cls, name: str | None) -> DatabaseErrorMapper:
        """Return the mapper for *name*, or the generic keyword mapper."""
        cls._ensure_discovered()
        mapper = cls._by_name.get(normalize_db_type(name)) if name else None
        if mapper is None:
            from localdata_errors.backends.generic import GENERIC_MAPPER  # noqa: PLC0415 - cycle

            return GENERIC_MAPPER
        return mapper

    @classmethod
    def lookup(cls, name: str | None) -> DatabaseErrorMapper | None:
        """Return the mapper for *name*, or ``None``; never raises."""
        if not name:
            return None
        cls._ensure_discovered()
        return cls._by_name.get(normalize_db_type(name))

    @classmethod
    def name_for_module(cls, module: str) -> str | None:
        """
        Return the backend whose ``driver_modules`` claims *module*.

        The longest dotted prefix wins: ``mysql.connector.errors`` is tried as
        itself, then ``mysql.connector``, then ``mysql``.
        """
        cls._ensure_discovered()
        by_module = cls._by_module
        while module:
            name = by_module.get(module)
            if name is not None:
                return name
            module = module.rpartition(".")[0]
        return None

    @classmethod
    def claim_for_type(cls, exc_type: type) -> Claim | None:
        """
        Return who claims an exception class: the backend, its mapper, and the driver.

        The driver is the top-level module of the class in the MRO that the
        backend claims: ``psycopg`` for a ``myapp`` subclass of
        ``psycopg.errors.UniqueViolation``.
        """
        return cls._claim(exc_type)

    @classmethod
    def _claim(cls, exc_type: type) -> Claim | None:
        # The hot path: a class seen before.  The cache is emptied by every
        # change and is empty until discovery, so a hit needs no other check.
        try:
            return cls._by_type[exc_type]
        except KeyError:
            pass
        except TypeError:  # an unhashable metaclass; rare, not worth caching
            return None
        cls._ensure_discovered()
        cache = cls._by_type
        claim: Claim | None = None
        for klass in getattr(exc_type, "__mro__", (exc_type,)):
            module = getattr(klass, "__module__", None)
            if isinstance(module, str) and module != "builtins":
                name = cls.name_for_module(module)
                mapper = cls._by_name.get(name) if name is not None else None
                if name is not None and mapper is not None:
                    claim = Claim(name, mapper, module.partition(".")[0])
                    break
        if len(cache) >= _TYPE_CACHE_LIMIT:
            cache.clear()
        cache[exc_type] = claim
        return claim

    @classmethod
    def list_mappers(cls) -> list[MapperInfo]:
        """Every registered mapper, with its aliases and where it came from, by name."""
        cls._ensure_discovered()
        with cls._lock:
            return sorted(cls._entries.values(), key=lambda info: info.name)

    @classmethod
    def names(cls) -> list[str]:
        """The canonical names of the registered mappers, sorted."""
        return [info.name for info in cls.list_mappers()]

    @classmethod
    def reset(cls) -> None:
        """
        Forget every registration and plugin; the next use discovers afresh.

        Meant for tests.
        """
        with cls._lock:
            cls._entries = {}
            cls._by_name = {}
            cls._by_module = {}
            cls._refiners = {}
            cls._by_type = {}
            cls._plugin_manager = None
            cls._discovered = False
        with _warned_lock:
            _warned.clear()
