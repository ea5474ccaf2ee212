package dev.crucible.server.cli;

import dev.crucible.application.tenancy.IssueApiKeyUseCase;
import dev.crucible.domain.tenancy.Names;
import dev.crucible.domain.tenancy.ApiKeySecret;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.server.database.EmbeddedDatabase;
import io.micronaut.context.ApplicationContext;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code crucible keys create --entity E}: prints a new API key once; only its hash is stored. */
@Command(name = "keys", mixinStandardHelpOptions = true, description = "Manage API keys.",
        subcommands = KeysCommand.Create.class)
final class KeysCommand {

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create an API key and print it once.")
    static final class Create implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        DatabaseOptions database;

        @Option(names = "--entity", required = true, description = "The team or user the key belongs to.")
        String entity;

        @Override
        public Integer call() {
            String problem = Names.problem("entity", entity);
            if (problem != null) {
                throw new ParameterException(spec.commandLine(), problem);
            }
            try (EmbeddedDatabase embedded = database.openEmbeddedIfNeeded()) {
                Map<String, Object> props = new HashMap<>(database.properties(embedded));
                props.put("crucible.runner.enabled", false);
                try (ApplicationContext context = ApplicationContext.builder().properties(props).start()) {
                    ApiKeySecret key = context.getBean(IssueApiKeyUseCase.class).issue(new EntityName(entity));
                    spec.commandLine().getOut().println(key.value());
                    spec.commandLine().getOut().flush();
                }
            }
            return 0;
        }
    }
}
