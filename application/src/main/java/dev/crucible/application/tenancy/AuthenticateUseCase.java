package dev.crucible.application.tenancy;

import dev.crucible.domain.tenancy.ApiKeySecret;
import dev.crucible.domain.tenancy.Caller;
import java.util.Optional;

/** Turns a presented API key into the caller it proves, or nothing when the key is unknown. */
public interface AuthenticateUseCase {

    Optional<Caller> authenticate(ApiKeySecret secret);
}
