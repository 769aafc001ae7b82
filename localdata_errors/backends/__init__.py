"""
The built-in backends, one module each.

They are registered in code (`localdata_errors._registry.MapperRegistry`
imports them on first use), so that every backend is there however the
package is run: installed, from a source tree, a zip or a frozen
application.  Third-party backends register through the `localdata_errors`
entry-point group, into the same registry, with the same standing.  No
backend module imports its driver: detection works on module names.
"""
