package dev.crucible.server.client;

import picocli.CommandLine.Parameters;

/** The {@code MODEL_ID} argument, first on the command line, of the commands about one trainable model. */
final class ModelArgument {

    @Parameters(index = "0", paramLabel = "MODEL_ID", description = "The model's id.")
    String id;

    /** The model's route, {@code /v1/preview/models/<id>}, the id kept inside its one path segment. */
    String path() {
        return "/v1/preview/models/" + Paths.segment(id);
    }
}
