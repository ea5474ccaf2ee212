package dev.crucible.application.job;

import dev.crucible.application.file.FileContents;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.application.job.dataset.JsonLineParser;
import dev.crucible.application.job.dataset.SftDatasetLimits;
import dev.crucible.application.job.dataset.SftDatasetReader;
import dev.crucible.domain.job.SftExample;
import dev.crucible.domain.tenancy.EntityName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

/**
 * Loads an SFT job's whole dataset: resolves its {@code training_data_url} again with {@link TrainingDataPolicy}
 * (the data may have moved since the job was queued), reads at most {@link SftDatasetLimits#maxBytes()} bytes from
 * the data directory, the web, the entity's uploaded files or its datasets, and reads them with {@link SftDatasetReader}.
 *
 * <p>Every refusal has reason INVALID and names {@code training_data_url}; its message is meant to become the
 * failed job's {@code error_message}. Thread-safe; blocks while it reads.
 */
public record SftDatasetLoader(TrainingDataPolicy policy, FileContents uploads, TrainingDataDownloads web,
        JsonLineParser parser, SftDatasetLimits limits) {

    /** The examples of the dataset at {@code trainingDataUrl}, read as {@code entity}, in file order. */
    public Outcome<List<SftExample>> load(EntityName entity, String trainingDataUrl) {
        Outcome<List<SftExample>> examples = policy.resolve(entity, trainingDataUrl)
                .then(this::bytes)
                .then(data -> SftDatasetReader.read(data, parser, limits));
        return switch (examples) {
            case Outcome.Done<List<SftExample>> done -> done;
            // An uploaded file that is gone by now is bad data for the job, not a missing resource of a request.
            case Outcome.Refused<List<SftExample>> refused ->
                    Outcome.refused(Refusal.invalid(TrainingDataPolicy.PARAM, refused.refusal().message()));
        };
    }

    private Outcome<byte[]> bytes(TrainingDataLocation location) {
        return switch (location) {
            case TrainingDataLocation.LocalFile local -> {
                try (InputStream in = Files.newInputStream(local.path())) {
                    yield bounded(in);
                } catch (IOException e) {
                    yield refuse(TrainingDataPolicy.NOT_IN_IMPORTS);
                }
            }
            case TrainingDataLocation.Uploaded uploaded -> {
                if (uploaded.file().bytes() > limits.maxBytes()) {
                    yield Outcome.refused(limits.tooLarge());
                }
                try (InputStream in = uploads.open(uploaded.file().id())) {
                    yield bounded(in);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read uploaded file " + uploaded.file().id(), e);
                }
            }
            case TrainingDataLocation.Snapshot snapshot -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                for (String line : snapshot.content()) {
                    out.writeBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
                    if (out.size() > limits.maxBytes()) {
                        yield Outcome.refused(limits.tooLarge());
                    }
                }
                yield Outcome.done(out.toByteArray());
            }
            case TrainingDataLocation.Web remote -> switch (web.download(remote.uri(), limits.maxBytes())) {
                case TrainingDataDownloads.Body body -> Outcome.done(body.bytes());
                case TrainingDataDownloads.TooLarge tooLarge -> Outcome.refused(limits.tooLarge());
                case TrainingDataDownloads.Failed failed ->
                        refuse("training data could not be downloaded from " + remote.uri() + ": " + failed.reason());
            };
        };
    }

    /** All of {@code in}, or the too-large refusal when it holds more than the limit. */
    private Outcome<byte[]> bounded(InputStream in) throws IOException {
        byte[] data = in.readNBytes(Math.toIntExact(limits.maxBytes() + 1));
        return data.length > limits.maxBytes() ? Outcome.refused(limits.tooLarge()) : Outcome.done(data);
    }

    private static <T> Outcome<T> refuse(String message) {
        return Outcome.refused(Refusal.invalid(TrainingDataPolicy.PARAM, message));
    }
}
