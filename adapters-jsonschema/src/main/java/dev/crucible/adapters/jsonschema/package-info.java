/** JSON Schema validation behind the application's {@code JsonSchemaValidator} port, with networknt's validator. */
package dev.crucible.adapters.jsonschema;
