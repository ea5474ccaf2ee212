package dev.crucible.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code crucible files upload FILE}: OpenAI's Files API, for SFT datasets. */
@Command(name = "files", mixinStandardHelpOptions = true, description = "Uploaded files.",
        subcommands = FilesCommand.Upload.class)
public final class FilesCommand {

    @Command(name = "upload", mixinStandardHelpOptions = true, description = "Upload a file; prints its id.")
    static final class Upload extends ClientCommand {

        @Parameters(paramLabel = "FILE", description = "The file to upload (an SFT dataset is JSONL).")
        Path file;

        @Option(names = "--purpose", defaultValue = "fine-tune", description = "The file's purpose (${DEFAULT-VALUE}).")
        String purpose;

        @Override
        int run(CrucibleClient client) throws IOException {
            JsonNode uploaded = client.upload("/v1/files", purpose, file);
            server.print(uploaded, uploaded.path("id").asText());
            return ExitCodes.OK;
        }
    }
}
