"""
Side by side: localdata-errors and localdata-mcp's error classifier on the same real errors.

``python -m compare`` (``tox -e compare``) runs both over the real-error
corpus (``tests.corpus.<backend>.collect()``) and writes a markdown table to
stdout and ``docs/comparison.md``.  It installs nothing: ``localdata-mcp``
must already be installed in the running environment.
"""
