"""
The built-in backends, one module each.

Each module is a pluggy plugin registered through the ``localdata_errors``
entry-point group in ``pyproject.toml``, exactly as a third-party plugin is;
none imports its driver (detection works on module names).
"""
