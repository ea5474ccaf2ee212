package dev.crucible.adapters.http.tinker.proto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.crucible.application.primitives.Datum;
import dev.crucible.application.primitives.ForwardBackwardInput;
import dev.crucible.application.primitives.ForwardBackwardOutput;
import dev.crucible.application.primitives.SampleOutput;
import dev.crucible.application.primitives.SampleOutput.TokenLogprob;
import dev.crucible.application.primitives.Tensor;
import dev.crucible.kernel.refusal.Outcome;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Generated bodies: whatever bytes arrive, reading gives a value or a refusal, never an exception; and valid inputs and
 * results go through the wire and back exactly (floats bit for bit, NaN included).
 */
class TinkerProtoPropertiesTest {

    private static final TinkerProto CODEC = new TinkerProto(new ProtoLimits(8, 64));

    @Property(tries = 1000)
    void anyBytesReadAsAValueOrARefusal(@ForAll @Size(max = 200) byte[] body) {
        assertNamesAFieldIfRefused(CODEC.readForwardBackward(body));
    }

    @Property(tries = 1000)
    void mutatedValidRequestsReadAsAValueOrARefusal(@ForAll("inputs") ForwardBackwardInput input,
            @ForAll @Size(min = 1, max = 6) List<@IntRange(max = 100_000) Integer> at,
            @ForAll @Size(min = 6, max = 6) byte[] with, @ForAll @IntRange(max = 2) int how) {
        byte[] valid = SdkRequests.request("m", 3, input).build().toByteArray();
        byte[] body = switch (how) {
            case 0 -> overwrite(valid, at, with);
            case 1 -> Arrays.copyOf(valid, at.getFirst() % (valid.length + 1));
            default -> insert(valid, at.getFirst() % (valid.length + 1), with);
        };
        assertNamesAFieldIfRefused(CODEC.readForwardBackward(body));
    }

    private static void assertNamesAFieldIfRefused(Outcome<ForwardBackwardRequest> read) {
        assertNotNull(read);
        if (read instanceof Outcome.Refused<ForwardBackwardRequest> refused) {
            assertTrue(refused.refusal().param().equals("body") || refused.refusal().param().startsWith("data"),
                    refused.refusal()::toString);
        }
    }

    @Property(tries = 500)
    void validRequestsRoundTripExactly(@ForAll("inputs") ForwardBackwardInput input, @ForAll int seqId) {
        byte[] body = SdkRequests.request("run-1:train:0", seqId, input).build().toByteArray();
        assertEquals(Outcome.done(new ForwardBackwardRequest("run-1:train:0", seqId, input)),
                CODEC.readForwardBackward(body));
    }

    @Property(tries = 300)
    void forwardBackwardResultsReadBackExactly(@ForAll("outputs") ForwardBackwardOutput output)
            throws InvalidProtocolBufferException {
        assertEquals(output, SdkResponses.forwardBackward(TinkerProto.write(output)));
    }

    @Property(tries = 300)
    void samplesReadBackExactly(@ForAll("samples") SampleOutput sample) throws InvalidProtocolBufferException {
        assertEquals(asTheSdkHoldsIt(sample), SdkResponses.sample(TinkerProto.write(sample)));
    }

    @Provide
    Arbitrary<ForwardBackwardInput> inputs() {
        Arbitrary<Map<String, Double>> config = Arbitraries.maps(Arbitraries.of("clip_low_threshold", "beta", "x"),
                Arbitraries.doubles().withSpecialValue(Double.NaN)).ofMaxSize(3);
        return Combinators.combine(datum().list().ofMaxSize(8), Arbitraries.of("cross_entropy", "ppo", "", "é:ü"),
                config, Arbitraries.of(true, false)).as(ForwardBackwardInput::new);
    }

    private static Arbitrary<Datum> datum() {
        return Arbitraries.integers().between(0, 20).flatMap(n -> Combinators.combine(
                Arbitraries.integers().array(int[].class).ofSize(n),
                Arbitraries.maps(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(12), tensor(n)).ofMaxSize(4))
                .as(Datum::new));
    }

    /** A tensor of n values, 1-D or with a second dimension that divides n (shapes the SDK sends). */
    private static Arbitrary<Tensor> tensor(int n) {
        Arbitrary<int[]> shape = Arbitraries.integers().between(1, 4).map(d -> n % d == 0 && n > 0
                ? new int[] {n / d, d} : new int[] {n});
        Arbitrary<Tensor> floats = Combinators.combine(floats().array(float[].class).ofSize(n), shape)
                .as(Tensor.Floats::new);
        Arbitrary<Tensor> ints = Combinators.combine(Arbitraries.longs().array(long[].class).ofSize(n), shape)
                .as(Tensor.Ints::new);
        return Arbitraries.oneOf(floats, ints);
    }

    private static Arbitrary<Float> floats() {
        return Arbitraries.floats().withSpecialValue(Float.NaN).withSpecialValue(Float.NEGATIVE_INFINITY)
                .withSpecialValue(-0f).withSpecialValue(Float.MIN_VALUE);
    }

    @Provide
    Arbitrary<ForwardBackwardOutput> outputs() {
        // Every datum has the same fields with the same kind and trailing shape, as one loss makes them.
        Arbitrary<Integer> width = Arbitraries.integers().between(0, 3);
        return Combinators.combine(width, Arbitraries.of(true, false), Arbitraries.integers().between(0, 5))
                .flatAs((trailing, isFloat, datums) -> Combinators.combine(
                        outputDatum(trailing, isFloat).list().ofSize(datums),
                        Arbitraries.maps(Arbitraries.of("loss:sum", "n:mean", "x:max"),
                                Arbitraries.doubles()).ofMaxSize(3))
                        .as((outs, metrics) -> new ForwardBackwardOutput("ArrayRecord", outs, metrics)));
    }

    private static Arbitrary<Map<String, Tensor>> outputDatum(int trailing, boolean isFloat) {
        return Arbitraries.integers().between(0, 6).flatMap(rows -> {
            int[] shape = trailing == 0 ? new int[] {rows} : new int[] {rows, trailing};
            int n = rows * Math.max(1, trailing);
            Arbitrary<Tensor> tensor = isFloat
                    ? floats().array(float[].class).ofSize(n).map(v -> new Tensor.Floats(v, shape))
                    : Arbitraries.longs().array(long[].class).ofSize(n).map(v -> new Tensor.Ints(v, shape));
            return tensor.map(t -> Map.of("logprobs", t));
        });
    }

    @Provide
    Arbitrary<SampleOutput> samples() {
        Arbitrary<SampleOutput.Sequence> sequence = Arbitraries.integers().between(0, 8).flatMap(n ->
                Combinators.combine(Arbitraries.integers().array(int[].class).ofSize(n),
                        floats().array(float[].class).ofSize(n), Arbitraries.of(SampleOutput.StopReason.class))
                        .as(SampleOutput.Sequence::new));
        // A real top-k cell is never the (0, -99999) mask; a row's cells are real ones.
        Arbitrary<TokenLogprob> cell = Combinators.combine(Arbitraries.integers().between(1, 1 << 20), floats())
                .as(TokenLogprob::new);
        return Arbitraries.integers().between(0, 6).flatMap(prompt -> Combinators.combine(
                sequence.list().ofMaxSize(4),
                floats().array(float[].class).ofSize(prompt),
                cell.list().ofMaxSize(3).list().ofSize(prompt),
                Arbitraries.integers().between(0, 100)).as(SampleOutput::new));
    }

    private static SdkResponses.Sample asTheSdkHoldsIt(SampleOutput sample) {
        List<SdkResponses.Sequence> sequences = sample.sequences().stream().map(s -> new SdkResponses.Sequence(
                s.stopReason() == SampleOutput.StopReason.STOP ? "stop" : "length",
                Arrays.stream(s.tokens()).boxed().toList(),
                s.tokens().length == 0 ? null : boxed(s.logprobs()))).toList();
        List<Float> prompt = sample.promptLogprobs().length == 0 ? null
                : boxed(sample.promptLogprobs()).stream().map(v -> v.isNaN() ? null : v).toList();
        List<List<TokenLogprob>> topk = sample.topkPromptLogprobs().isEmpty() ? null
                : sample.topkPromptLogprobs().stream().map(row -> row.isEmpty() ? null : row).toList();
        return new SdkResponses.Sample(sequences, prompt, topk, sample.promptCacheHitTokens());
    }

    private static List<Float> boxed(float[] values) {
        List<Float> out = new ArrayList<>(values.length);
        for (float v : values) {
            out.add(v);
        }
        return out;
    }

    private static byte[] overwrite(byte[] valid, List<Integer> at, byte[] with) {
        byte[] body = valid.clone();
        for (int i = 0; i < at.size() && body.length > 0; i++) {
            body[at.get(i) % body.length] = with[i];
        }
        return body;
    }

    private static byte[] insert(byte[] valid, int at, byte[] with) {
        byte[] body = new byte[valid.length + with.length];
        System.arraycopy(valid, 0, body, 0, at);
        System.arraycopy(with, 0, body, at, with.length);
        System.arraycopy(valid, at, body, at + with.length, valid.length - at);
        return body;
    }
}
