package dev.crucible.adapters.jsonschema;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.ValidationLimitExceededException;
import dev.crucible.application.feedback.JsonSchemaValidator;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link JsonSchemaValidator} with networknt's json-schema-validator, JSON Schema 2020-12. Each check compiles the
 * schema afresh, with the check's own {@link PatternSearch} as its regular-expression engine (so patterns run in the
 * application's linear-time engine and count against the check's budget) and networknt's evaluation-step limit as
 * the bound on keyword evaluations. Format assertions stay off ({@code format} only annotates, as in
 * {@code jsonschema.validate}). Stateless and thread-safe.
 */
public final class NetworkntSchemaValidator implements JsonSchemaValidator {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public boolean matches(Object value, Map<?, ?> schema, PatternSearch patterns, long maxSteps) {
        SchemaRegistryConfig config = SchemaRegistryConfig.builder()
                .regularExpressionFactory(pattern -> text -> patterns.find(pattern, text))
                .formatAssertionsEnabled(false)
                .build();
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                builder -> builder.schemaRegistryConfig(config));
        Schema compiled = registry.getSchema(JSON.valueToTree(schema));
        try {
            return compiled.validate(JSON.valueToTree(value),
                    context -> context.executionConfig(c -> c.maxEvaluationSteps(maxSteps))).isEmpty();
        } catch (ValidationLimitExceededException e) {
            throw new TooMuchWork(maxSteps);
        }
    }
}
