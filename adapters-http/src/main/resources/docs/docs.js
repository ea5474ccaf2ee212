// Swagger UI over this server's own OpenAPI document; "Authorize" takes an API key (Bearer) for "Try it out".
window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
  });
});
