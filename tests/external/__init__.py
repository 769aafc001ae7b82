"""
Evidence this project did not write: other projects' own classifications of database errors.

Two well-known projects classify driver errors and ship what they classify:
oslo.db (OpenStack) in its exception filters' test module, and the Spring
Framework in its JDBC error-code translation table (`sql-error-codes.xml`).
Both are read at test time from what is installed on the machine, turned into
cases, and our answer is judged against each project's documented meaning
(`tests.external.meaning`).  `python -m bench.external` prints the figures.
"""
