import json
import sqlite3

from localdata_errors import classify_error

db = sqlite3.connect(":memory:")
try:
    db.execute("SELECT * FROM orders")
except sqlite3.Error as exc:
    answer = classify_error(exc)  # the backend is detected from the driver

print(json.dumps(answer.to_tool_error(), indent=2))
