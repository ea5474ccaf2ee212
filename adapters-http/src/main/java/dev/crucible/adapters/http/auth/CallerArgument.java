package dev.crucible.adapters.http.auth;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.bind.binders.TypedRequestArgumentBinder;
import io.micronaut.security.authentication.Authentication;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.UUID;

/** Lets controllers take the authenticated {@link Caller} as a parameter. */
@Singleton
final class CallerArgument implements TypedRequestArgumentBinder<Caller> {

    static final String KEY_ID = "keyId";

    @Override
    public Argument<Caller> argumentType() {
        return Argument.of(Caller.class);
    }

    @Override
    public BindingResult<Caller> bind(ArgumentConversionContext<Caller> context, HttpRequest<?> source) {
        Optional<Caller> caller = source.getUserPrincipal(Authentication.class)
                .map(a -> new Caller(new EntityName(a.getName()), UUID.fromString((String) a.getAttributes().get(KEY_ID))));
        return () -> caller;
    }
}
