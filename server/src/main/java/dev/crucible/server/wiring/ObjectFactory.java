package dev.crucible.server.wiring;

import dev.crucible.application.feedback.SpecLimits;
import dev.crucible.application.object.CreateObjectService;
import dev.crucible.application.object.ObjectStore;
import dev.crucible.application.object.ReadObjectService;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;

/** Builds the object use cases (Weave's {@code /obj/*} routes) with {@code new}, over the object store. */
@Factory
class ObjectFactory {

    @Singleton
    SpecLimits specLimits(SpecSettings settings) {
        return settings.limits();
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
