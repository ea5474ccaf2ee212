package dev.crucible.server.wiring;

import dev.crucible.application.feedback.SpecLimits;
import dev.crucible.application.object.CreateObjectService;
import dev.crucible.application.object.ObjectStore;
import dev.crucible.application.object.ReadObjectService;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.time.Clock;

/** Builds the object use cases (Weave's {@code /obj/*} routes) with {@code new}, over the object store. */
@Factory
class ObjectFactory {

    /** How large annotation specs may be and how much checking a value against one may cost. */
    @Singleton
    SpecLimits specLimits(@Value("${crucible.feedback.max-pattern-size:2000}") long maxPatternSize,
            @Value("${crucible.feedback.max-spec-schema-nodes:10000}") int maxSchemaNodes,
            @Value("${crucible.feedback.max-spec-schema-depth:32}") int maxSchemaDepth,
            @Value("${crucible.feedback.max-spec-check-work:5000000}") long maxCheckWork) {
        return new SpecLimits(maxPatternSize, maxSchemaNodes, maxSchemaDepth, maxCheckWork);
    }

    @Singleton
    CreateObjectService createObject(ObjectStore objects, Clock clock, SpecLimits specLimits) {
        return new CreateObjectService(objects, clock, specLimits);
    }

    @Singleton
    ReadObjectService readObject(ObjectStore objects) {
        return new ReadObjectService(objects);
    }
}
