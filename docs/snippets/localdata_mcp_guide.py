# localdata-mcp's "Integration guide", step 2, with only the imports changed.
from localdata_errors import (
    DatabaseErrorMapper,
    ErrorCategory,
    ErrorMapperRegistry,
    StructuredErrorResponse,
)


class MyDBErrorMapper(DatabaseErrorMapper):
    def map_error(self, exception: Exception) -> StructuredErrorResponse:
        msg = str(exception).lower()
        if "duplicate" in msg:
            return StructuredErrorResponse(
                error_type=ErrorCategory.CONSTRAINT_ERROR,
                message=str(exception),
                suggestion="Check for duplicate values.",
            )
        # Fall back to the generic mapper for unrecognised errors.
        from localdata_errors import GenericDatabaseErrorMapper

        return GenericDatabaseErrorMapper().map_error(exception)


ErrorMapperRegistry.register("mydb", MyDBErrorMapper())
