"""
The mapper registry: the built-in backends, the plugins found through entry points,
and the mappers registered in code.

A `MapperRegistry` is an instance, as pluggy's `PluginManager` is: a default
one sits behind the module-level functions (`classify_error` and the
localdata-mcp-style `ErrorMapperRegistry`), and tests or applications that
want their own make one.

Discovery is lazy: the built-in backends are registered on first use (they
are there however the package is run: a source tree, a zip, a frozen app),
then the plugins of the `localdata_errors` entry-point group are loaded and
asked for their mappers.  No plugin code runs under a lock another thread
needs: while one thread discovers, the others classify with what is already
registered.  A plugin that fails to load or misbehaves is logged once and
left out, and the rest keep working.
"""

# Annotations are evaluated here, not postponed: typing.NamedTuple compiles each
# string annotation into a ForwardRef (about 1 ms of the package's import in all).

import re
import threading
from collections.abc import Iterable, Sequence
from typing import Any, Final, NamedTuple

import pluggy

from localdata_errors._backends import normalize_db_type
from localdata_errors._kinds import Kind
from localdata_errors._lazy import Literals
from localdata_errors._mapper import (
    BackendMapper,
    DatabaseErrorMapper,
    ErrorInput,
    ErrorRefiner,
    MappedError,
    RefinerClaims,
    TextSign,
)
from localdata_errors._version import __version__
from localdata_errors._warn import warn_once

__all__ = [
    "DISTRIBUTION",
    "ENTRY_POINT_GROUP",
    "Claim",
    "ErrorMapperRegistry",
    "Mapper",
    "MapperInfo",
    "MapperRegistry",
    "NoSuchMapperError",
    "Standing",
    "builtin_mappers",
    "default_registry",
    "hookimpl",
    "hookspec",
    "mapper_problems",
    "replace_default_registry",
]

ENTRY_POINT_GROUP: Final = "localdata_errors"
PROJECT_NAME: Final = "localdata_errors"
DISTRIBUTION: Final = "localdata-errors"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)

#: Either contract: this library's (`BackendMapper`) or localdata-mcp's (`DatabaseErrorMapper`).
Mapper = BackendMapper | DatabaseErrorMapper

# Exception classes are few; the bound only guards against classes made at run time.
_TYPE_CACHE_LIMIT: Final = 4096
# Read on every error of a refined backend: a module name (an enum's member
# read from its class goes through EnumType's __getattr__ hook on Python 3.11).
_UNKNOWN: Final = Kind.UNKNOWN


class _HookSpecs:
    """The hooks a plugin may implement."""

    @hookspec
    def localdata_errors_mappers(self) -> Sequence[BackendMapper]:  # type: ignore[empty-body]
        """
        Return the mappers this plugin contributes.

        Returns:
            A sequence of `BackendMapper` instances, each with a distinct `name`.
        """


class NoSuchMapperError(LookupError):
    """Raised by `MapperRegistry.get_mapper` for a name nobody registered."""


class Standing(NamedTuple):
    """
    How the core calls a registered mapper.

    Attributes:
        role: `"backend"` (a `BackendMapper`), `"refiner"` (an
            `ErrorRefiner`: its base answers first) or `"legacy"` (a
            localdata-mcp-style `DatabaseErrorMapper`).
        trusted: Whether it is built in (its answers are not checked field by
            field on every call: its tests hold them).
        refined: Whether a registered refiner refines its answers.
    """

    role: str
    trusted: bool
    refined: bool = False


class Claim(NamedTuple):
    """
    Who claims an exception class (`MapperRegistry.claim_for_type`).

    Attributes:
        name: The backend's canonical name.
        mapper: Its mapper.
        driver: The top-level module of the claimed class (`psycopg`).
        standing: How the core calls it.
    """

    name: str
    mapper: BackendMapper
    driver: str
    standing: Standing = Standing("backend", False)


class MapperInfo(NamedTuple):
    """
    One row of `MapperRegistry.list_mappers`.

    Attributes:
        name: The canonical name.
        aliases: Other names that resolve to it.
        driver_modules: The driver modules it detects.
        source: `"built-in"`, `"entry point"` or `"register()"`.
        distribution: The distribution that provided it (`None` for
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
    mapper: Mapper


def _strings(value: object, what: str) -> list[str]:
    if isinstance(value, str) or not isinstance(value, tuple | list | frozenset | set):
        return [f"{what} must be a tuple of strings, not {type(value).__name__}"]
    if not all(isinstance(item, str) for item in value):
        return [f"{what} must hold strings only"]
    return []


def _sign_problems(signs: object) -> list[str]:
    """What is wrong with a mapper's `text_signs`."""
    if not isinstance(signs, tuple):
        return [f"text_signs must be a tuple of TextSign, not {type(signs).__name__}"]
    problems: list[str] = []
    for sign in signs:
        if not isinstance(sign, TextSign):
            problems.append(f"text_signs must hold TextSign only, not {type(sign).__name__}")
            continue
        try:
            re.compile(sign.pattern)
        except (re.error, TypeError) as err:
            problems.append(f"text sign {sign.pattern!r} does not compile: {err}")
        if not isinstance(sign.triggers, tuple) or not sign.triggers:
            problems.append(f"text sign {sign.pattern!r} needs a tuple of triggers")
        elif not all(isinstance(t, str) and t for t in sign.triggers):
            problems.append(f"text sign {sign.pattern!r} has a trigger that is not a text")
    return problems


def mapper_problems(mapper: object, name: object = None) -> list[str]:
    """
    What is wrong with a mapper, as the registry and the compliance suite see it.

    Args:
        mapper: A `BackendMapper`, an `ErrorRefiner` or a localdata-mcp-style
            `DatabaseErrorMapper`.
        name: The name it is registered under, when given
            (`ErrorMapperRegistry.register("mydb", mapper)`); else the
            mapper's own `name`.

    Returns:
        One line per problem; empty when the registry accepts it.
    """
    if not isinstance(mapper, BackendMapper | DatabaseErrorMapper):
        return [f"{type(mapper).__name__} is neither a BackendMapper nor a DatabaseErrorMapper"]
    problems: list[str] = []
    own = getattr(mapper, "name", None) if isinstance(mapper, BackendMapper) else None
    given = own if name is None else name
    if not isinstance(given, str) or not given.strip():
        problems.append("its name must be a non-empty string")
    elif normalize_db_type(given) == "generic":
        problems.append("the name 'generic' is reserved for the keyword fallback")
    if not callable(getattr(mapper, "map_error", None)):
        problems.append("map_error is not callable")
    if not isinstance(mapper, BackendMapper):
        return problems
    problems += _strings(mapper.aliases, "aliases")
    problems += _strings(mapper.driver_modules, "driver_modules")
    problems += _sign_problems(mapper.text_signs)
    if isinstance(mapper, ErrorRefiner):
        refines = mapper.refines
        problems += _strings(refines, "refines")
        if not problems and (
            not refines or normalize_db_type(given) in {normalize_db_type(b) for b in refines}
        ):
            problems.append("a refiner names the other backends it refines")
        claims: object = mapper.claims
        if not isinstance(claims, RefinerClaims):
            problems.append(f"claims must be a RefinerClaims, not {type(claims).__name__}")
        else:
            problems += _strings(claims.codes, "claims.codes")
            problems += _strings(claims.driver_modules, "claims.driver_modules")
            problems += _strings(claims.markers, "claims.markers")
            if not problems and any(not m.strip() for m in claims.markers):
                problems.append("claims.markers holds an empty marker")
            if not isinstance(claims.kinds, frozenset) or not all(
                isinstance(k, Kind) for k in claims.kinds
            ):
                problems.append("claims.kinds must be a frozenset of Kind")
    return problems


class _Markers(NamedTuple):
    """One refiner's markers (lower-cased) and the base kinds among which they are looked for."""

    refiner: ErrorRefiner
    kinds: frozenset[Kind]
    markers: tuple[str, ...]


class _MarkerSearch(NamedTuple):
    """Refiners, and one search for all their markers (each standing for its refiner's index)."""

    refiners: tuple[ErrorRefiner, ...]
    markers: Literals


def _marker_search(entries: Sequence[_Markers]) -> _MarkerSearch | None:
    if not entries:
        return None
    return _MarkerSearch(
        tuple(entry.refiner for entry in entries),
        Literals((marker, n) for n, entry in enumerate(entries) for marker in entry.markers),
    )


class _Refiners(NamedTuple):
    """A base backend's refiners, indexed by what they claim."""

    by_code: dict[str, tuple[ErrorRefiner, ...]]
    by_module: dict[str, tuple[ErrorRefiner, ...]]
    #: The base answer's kind -> the markers to look for among it.
    by_kind: dict[Kind, _MarkerSearch | None]
    #: The markers looked for among every kind.
    any_kind: _MarkerSearch | None
    order: dict[int, int]


def _index_refiners(refiners: list[ErrorRefiner]) -> _Refiners:
    by_code: dict[str, list[ErrorRefiner]] = {}
    by_module: dict[str, list[ErrorRefiner]] = {}
    markers: list[_Markers] = []
    for refiner in refiners:
        claims = refiner.claims
        for code in claims.codes:
            by_code.setdefault(code, []).append(refiner)
        for module in claims.driver_modules:
            by_module.setdefault(module, []).append(refiner)
        if claims.markers:
            lowered = tuple(dict.fromkeys(m.lower() for m in claims.markers))
            markers.append(_Markers(refiner, frozenset(claims.kinds), lowered))
    by_kind = {
        kind: _marker_search([e for e in markers if not e.kinds or kind in e.kinds])
        for entry in markers
        for kind in entry.kinds
    }
    return _Refiners(
        {k: tuple(v) for k, v in by_code.items()},
        {k: tuple(v) for k, v in by_module.items()},
        by_kind,
        _marker_search([entry for entry in markers if not entry.kinds]),
        {id(refiner): n for n, refiner in enumerate(refiners)},
    )


class _Tables(NamedTuple):
    """What the registry holds, rebuilt on every change and read without a lock."""

    entries: dict[str, MapperInfo]
    by_name: dict[str, Mapper]
    by_module: dict[str, str]
    refiners: dict[str, _Refiners]
    claims: dict[type, Claim | None]
    standing: dict[int, Standing]


def _build(entries: dict[str, MapperInfo]) -> _Tables:
    by_name: dict[str, Mapper] = {name: info.mapper for name, info in entries.items()}
    by_module: dict[str, str] = {}
    refiners: dict[str, list[ErrorRefiner]] = {}
    for name, info in entries.items():
        for alias in info.aliases:
            by_name.setdefault(normalize_db_type(alias), info.mapper)
        for module in info.driver_modules:
            by_module.setdefault(module, name)
        if isinstance(info.mapper, ErrorRefiner):
            for base in info.mapper.refines:
                refiners.setdefault(normalize_db_type(base), []).append(info.mapper)
    indexed = {base: _index_refiners(found) for base, found in refiners.items()}
    standing = {id(info.mapper): _standing(info, name in indexed) for name, info in entries.items()}
    return _Tables(dict(entries), by_name, by_module, indexed, {}, standing)


def _standing(info: MapperInfo, refined: bool) -> Standing:
    mapper = info.mapper
    if isinstance(mapper, ErrorRefiner):
        role = "refiner"
    elif isinstance(mapper, BackendMapper):
        role = "backend"
    else:
        role = "legacy"
    return Standing(role, info.source == "built-in", refined)


_EMPTY: Final = _build({})


def _entry_point_name(ep: Any) -> str:
    """Sort key of entry points: by name; broken metadata sorts first and fails to load."""
    try:
        return str(ep.name)
    except Exception:  # noqa: BLE001 - a broken entry point is reported when loaded
        return ""


class MapperRegistry:
    """
    A set of mappers: the built-in backends, entry-point plugins, and those registered in code.

    Args:
        plugins: Whether to load the `localdata_errors` entry-point group's
            plugins on first use (the built-in backends are always there).
    """

    def __init__(self, *, plugins: bool = True) -> None:
        self._plugins = plugins
        # Held only to change the tables or the discovery state, never while
        # a plugin's code runs.
        self._lock = threading.Lock()
        self._tables = _EMPTY
        self._builtins_done = False
        # "pending", "running" (one thread is loading plugins) or "done".
        self._discovery = "pending" if plugins else "done"
        # Both done: the tables are complete, read them as they are.
        self._ready = False
        self._pm: pluggy.PluginManager | None = None

    # -- discovery -------------------------------------------------------------

    def plugin_manager(self) -> pluggy.PluginManager:
        """The pluggy manager that holds the loaded plugins (created on demand)."""
        with self._lock:
            if self._pm is None:
                pm = pluggy.PluginManager(PROJECT_NAME)
                pm.add_hookspecs(_HookSpecs)
                self._pm = pm
            return self._pm

    def _current(self) -> _Tables:
        """The tables, with the built-ins registered and the plugins discovered, where it can."""
        if self._ready:
            return self._tables
        if not self._builtins_done:
            self._register_builtins()
        if self._discovery == "pending":
            with self._lock:
                start = self._discovery == "pending"
                if start:
                    self._discovery = "running"
            if start:
                try:
                    self._discover()
                finally:
                    with self._lock:
                        self._discovery = "done"
        # The flag last: a thread that sees it finds the tables complete.
        self._ready = self._builtins_done and self._discovery == "done"
        # "running" in another thread: what is registered so far answers.
        return self._tables

    def _register_builtins(self) -> None:
        rows = [
            self._row(m, None, "built-in", DISTRIBUTION, __version__) for m in builtin_mappers()
        ]
        with self._lock:
            if self._builtins_done:
                return
            entries = {row.name: row for row in rows}
            # Registered in code before first use: theirs wins over a built-in's name.
            entries.update(self._tables.entries)
            self._tables = _build(entries)
            self._builtins_done = True

    def _discover(self) -> None:
        # Imported here, not at module level: importlib.metadata costs more to
        # import than the rest of the package, and only discovery needs it.
        import importlib.metadata  # noqa: PLC0415

        pm = self.plugin_manager()
        try:
            eps: Iterable[Any] = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
        except Exception as exc:  # noqa: BLE001 - broken metadata must not break classification
            warn_once("entry_points", "cannot read entry points: %r", exc)
            eps = ()
        found: list[tuple[str, MapperInfo]] = []
        for ep in sorted(eps, key=_entry_point_name):
            found += self._load(pm, ep)
        with self._lock:
            entries = dict(self._tables.entries)
            for label, row in found:
                if row.name in entries:
                    kept = entries[row.name]
                    warn_once(
                        f"dup:{row.name}:{label}",
                        "plugin %s registers %r again; the first registration (%s) is kept",
                        label,
                        row.name,
                        kept.distribution or kept.source,
                    )
                    continue
                entries[row.name] = row
            self._tables = _build(entries)

    def _load(self, pm: pluggy.PluginManager, ep: Any) -> list[tuple[str, MapperInfo]]:
        """One entry point's mappers, each with the plugin's label; a broken plugin gives none."""
        ep_name = _entry_point_name(ep)
        try:
            dist = getattr(ep, "dist", None)
            dist_name = getattr(dist, "name", None)
            dist_version = getattr(dist, "version", None)
            plugin = ep.load()
        except Exception as exc:  # noqa: BLE001 - a broken plugin is isolated
            warn_once(f"load:{ep_name}", "plugin %r failed to load: %r", ep_name, exc)
            return []
        if pm.is_registered(plugin):
            return []
        try:
            pm.register(plugin, name=f"{ep_name}@{dist_name}")
            # A hook implementation whose name matches no hook (a typo) would
            # never be called: say so, and leave the plugin out.
            pm.check_pending()
        except Exception as exc:  # noqa: BLE001 - pluggy's validation errors, a bad signature
            if pm.is_registered(plugin):
                pm.unregister(plugin)
            warn_once(f"register:{ep_name}", "plugin %r rejected: %r", ep_name, exc)
            return []
        # Each plugin's hook on its own, so one that raises spoils only itself.
        caller = pm.subset_hook_caller(
            "localdata_errors_mappers",
            remove_plugins=[p for p in pm.get_plugins() if p is not plugin],
        )
        label = pm.get_name(plugin) or repr(plugin)
        try:
            results: list[Any] = caller()
        except Exception as exc:  # noqa: BLE001 - a raising plugin is isolated
            warn_once(f"hook:{label}", "plugin %s raised: %r", label, exc)
            return []
        rows = []
        for result in results:
            for mapper in result if isinstance(result, list | tuple) else [result]:
                problems = mapper_problems(mapper)
                if problems:
                    warn_once(
                        f"type:{label}:{type(mapper).__name__}",
                        "plugin %s returned a malformed mapper (%s); ignored",
                        label,
                        "; ".join(problems),
                    )
                    continue
                rows.append(
                    (label, self._row(mapper, None, "entry point", dist_name, dist_version))
                )
        return rows

    @staticmethod
    def _row(
        mapper: Mapper,
        name: str | None,
        source: str,
        distribution: str | None,
        version: str | None,
    ) -> MapperInfo:
        if isinstance(mapper, BackendMapper):
            canonical = normalize_db_type(name or mapper.name)
            aliases, modules = tuple(mapper.aliases), tuple(mapper.driver_modules)
        else:
            canonical, aliases, modules = normalize_db_type(name), (), ()
        return MapperInfo(canonical, aliases, modules, source, distribution, version, mapper)

    # -- changes ---------------------------------------------------------------

    def register(self, name: str, mapper: Mapper) -> None:
        """
        Register *mapper* under *name*, replacing any mapper of that name.

        Args:
            name: The backend name; normalised like `db_type`.
            mapper: A `BackendMapper` (or `ErrorRefiner`), or a mapper written
                to localdata-mcp's contract (`DatabaseErrorMapper`).

        Raises:
            TypeError: *mapper* is neither kind of mapper, or malformed.
            ValueError: *name* is empty or `"generic"` (the fallback is fixed).
        """
        problems = mapper_problems(mapper, name)
        if problems:
            error = (
                TypeError if "neither" in problems[0] or "callable" in problems[0] else ValueError
            )
            raise error("; ".join(problems))
        row = self._row(mapper, name, "register()", None, None)
        with self._lock:
            entries = dict(self._tables.entries)
            entries[row.name] = row
            self._tables = _build(entries)

    def unregister(self, name: str) -> Mapper | None:
        """
        Remove the mapper registered under *name*.

        Returns:
            The removed mapper, or `None` if there was none.
        """
        self._current()
        with self._lock:
            entries = dict(self._tables.entries)
            info = entries.pop(normalize_db_type(name), None)
            self._tables = _build(entries)
        return info.mapper if info else None

    # -- look-ups --------------------------------------------------------------

    def lookup(self, name: object) -> Mapper | None:
        """The mapper for *name* (or one of its aliases), or `None`; never raises."""
        if not isinstance(name, str) or not name:
            return None
        return self._current().by_name.get(normalize_db_type(name))

    def get_mapper(self, name: str) -> Mapper:
        """
        The mapper for *name* (or one of its aliases).

        Raises:
            NoSuchMapperError: Nothing is registered under that name.
        """
        mapper = self.lookup(name)
        if mapper is None:
            raise NoSuchMapperError(f"{ENTRY_POINT_GROUP}:{normalize_db_type(name)}")
        return mapper

    def base_of(self, refiner: ErrorRefiner) -> BackendMapper | None:
        """The first backend of `refiner.refines` that is registered (and not a refiner)."""
        for name in refiner.refines:
            mapper = self.lookup(name)
            if isinstance(mapper, BackendMapper) and not isinstance(mapper, ErrorRefiner):
                return mapper
        return None

    def name_for_module(self, module: str) -> str | None:
        """
        The backend whose `driver_modules` claims *module*.

        The longest dotted prefix wins: `mysql.connector.errors` is tried as
        itself, then `mysql.connector`, then `mysql`.
        """
        by_module = self._current().by_module
        while module:
            name = by_module.get(module)
            if name is not None:
                return name
            module = module.rpartition(".")[0]
        return None

    def claim_for_type(self, exc_type: type) -> Claim | None:
        """
        Who claims an exception class: the backend, its mapper, and the driver.

        The driver is the top-level module of the class in the MRO that the
        backend claims: `psycopg` for a `myapp` subclass of
        `psycopg.errors.UniqueViolation`.
        """
        tables = self._tables if self._ready else self._current()
        cache = tables.claims
        try:
            return cache[exc_type]
        except KeyError:
            pass
        except TypeError:  # an unhashable metaclass; rare, not worth caching
            return self._claim(tables, exc_type)
        claim = self._claim(tables, exc_type)
        if len(cache) >= _TYPE_CACHE_LIMIT:
            cache.clear()
        cache[exc_type] = claim
        return claim

    def _claim(self, tables: _Tables, exc_type: type) -> Claim | None:
        for klass in getattr(exc_type, "__mro__", (exc_type,)):
            module = getattr(klass, "__module__", None)
            if not isinstance(module, str) or module == "builtins":
                continue
            name = self.name_for_module(module)
            mapper = tables.by_name.get(name) if name is not None else None
            if name is not None and isinstance(mapper, BackendMapper):
                standing = tables.standing[id(mapper)]
                return Claim(name, mapper, module.partition(".")[0], standing)
        return None

    def standing(self, mapper: object) -> Standing | None:
        """How the core calls *mapper*; `None` for one that is not registered."""
        return self._current().standing.get(id(mapper))

    def refiners_for(
        self, backend: str, error: ErrorInput, base: MappedError | None
    ) -> tuple[ErrorRefiner, ...]:
        """
        The refiners of *backend* whose claims match this error, in registration order.

        Args:
            backend: The base backend's canonical name.
            error: The error.
            base: The base mapper's answer.

        Returns:
            The refiners to ask, first registered first.
        """
        index = (self._tables if self._ready else self._current()).refiners.get(backend)
        if index is None:
            return ()
        # Tuples throughout: most errors are claimed by none, and add nothing.
        found: tuple[ErrorRefiner, ...] = ()
        by_code = index.by_code
        if by_code:
            codes = (error.code,) if base is None else (error.code, base.code, base.sqlstate)
            for code in codes:
                if code is not None:
                    found += by_code.get(code if type(code) is str else str(code), ())
        if index.by_module and error.exception is not None:
            module = type(error.exception).__module__
            while isinstance(module, str) and module:
                found += index.by_module.get(module, ())
                module = module.rpartition(".")[0]
        # No base answer is looked up as Kind.UNKNOWN: nothing recognised.
        search = index.by_kind.get(_UNKNOWN if base is None else base.kind, index.any_kind)
        if search is not None:
            # One search of the text finds every marker it holds.
            held = search.markers.found(error.message.lower())
            found += tuple([search.refiners[n] for n in held])
        if len(found) < 2:
            return found
        # Each once, first registered first.
        return tuple(sorted({id(r): r for r in found}.values(), key=lambda r: index.order[id(r)]))

    def list_mappers(self) -> list[MapperInfo]:
        """Every registered mapper, with its aliases and where it came from, by name."""
        return sorted(self._current().entries.values(), key=lambda info: info.name)

    def names(self) -> list[str]:
        """The canonical names of the registered mappers, sorted."""
        return [info.name for info in self.list_mappers()]


def builtin_mappers() -> list[BackendMapper]:
    """
    One instance of each built-in backend's mapper, in the order they are registered.

    The backends are this package's own code, imported on first use (not
    with the package: `import localdata_errors` stays cheap).
    """
    from localdata_errors.backends.duckdb import DuckdbMapper  # noqa: PLC0415 - see above
    from localdata_errors.backends.mssql import MssqlMapper  # noqa: PLC0415
    from localdata_errors.backends.mysql import MySQLMapper  # noqa: PLC0415
    from localdata_errors.backends.oracle import OracleMapper  # noqa: PLC0415
    from localdata_errors.backends.postgresql import PostgreSQLMapper  # noqa: PLC0415
    from localdata_errors.backends.sqlite import SqliteMapper  # noqa: PLC0415

    return [
        SqliteMapper(),
        DuckdbMapper(),
        PostgreSQLMapper(),
        MySQLMapper(),
        OracleMapper(),
        MssqlMapper(),
    ]


_default: MapperRegistry | None = None
_default_lock = threading.Lock()


def replace_default_registry(registry: MapperRegistry | None) -> MapperRegistry | None:
    """
    Make *registry* the default one (`None`: a new one on next use); return the one it replaces.

    For tests and applications that scope registrations
    (`localdata_errors.testing.fresh_default_registry` wraps it).
    """
    global _default
    with _default_lock:
        previous, _default = _default, registry
    return previous


def default_registry() -> MapperRegistry:
    """The registry behind the module-level functions, created on first use."""
    global _default  # noqa: PLW0603 - the one default instance, as logging's root logger
    registry = _default
    if registry is None:
        with _default_lock:
            if _default is None:
                _default = MapperRegistry()
            registry = _default
    return registry


class ErrorMapperRegistry:
    """
    The default registry, called as localdata-mcp calls its own.

    `ErrorMapperRegistry.register("mydb", MyMapper())` registers into the
    registry `classify_error` uses by default (`default_registry`); every
    method here is that instance's.
    """

    @classmethod
    def register(cls, name: str, mapper: Mapper) -> None:
        """Register *mapper* under *name* (see `MapperRegistry.register`)."""
        default_registry().register(name, mapper)

    @classmethod
    def unregister(cls, name: str) -> Mapper | None:
        """Remove the mapper registered under *name* (see `MapperRegistry.unregister`)."""
        return default_registry().unregister(name)

    @classmethod
    def get_mapper(cls, name: str) -> Mapper:
        """The mapper for *name* (see `MapperRegistry.get_mapper`)."""
        return default_registry().get_mapper(name)

    @classmethod
    def lookup(cls, name: object) -> Mapper | None:
        """The mapper for *name*, or `None` (see `MapperRegistry.lookup`)."""
        return default_registry().lookup(name)

    @classmethod
    def list_mappers(cls) -> list[MapperInfo]:
        """Every registered mapper (see `MapperRegistry.list_mappers`)."""
        return default_registry().list_mappers()

    @classmethod
    def names(cls) -> list[str]:
        """The registered names, sorted (see `MapperRegistry.names`)."""
        return default_registry().names()

    @classmethod
    def claim_for_type(cls, exc_type: type) -> Claim | None:
        """Who claims an exception class (see `MapperRegistry.claim_for_type`)."""
        return default_registry().claim_for_type(exc_type)

    @classmethod
    def plugin_manager(cls) -> pluggy.PluginManager:
        """The default registry's pluggy manager."""
        return default_registry().plugin_manager()
