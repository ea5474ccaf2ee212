/**
 * The OpenAPI document micronaut-openapi generates from the controllers ({@code GET /openapi.json}, with the error
 * envelope added to every operation) and Swagger UI over it ({@code GET /docs}).
 */
package dev.crucible.adapters.http.openapi;
