package dev.crucible.runtime.training;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Tokenises one conversation of a trajectory the way ART's trainer does: only the assistant turns the policy sampled
 * (choices carrying logprobs, or any assistant message when training without logprobs is allowed) are trained, with
 * the exact token ids the sampler produced ({@code token_id:N} in {@code logprobs.content}, or the choice's
 * {@code token_ids}) and its log-probabilities. The conversation is cut after the last trained turn. With one
 * trained turn, its tokens follow the prompt the sampler saw (the earlier messages with a generation prompt); with
 * several, the conversation is rendered with each trained turn's content replaced by a marker that is then swapped
 * for the sampled ids, and the text between markers is tokenised piece by piece.
 */
public final class TrajectoryTokenizer {

    private static final String MARK_OPEN = "\uE000crucible-turn-";
    private static final String MARK_CLOSE = "\uE001";

    private final TrainingModel model;
    private final boolean withoutLogprobs;
    private Map<ByteBuffer, Integer> byBytes;

    public TrajectoryTokenizer(TrainingModel model, boolean allowTrainingWithoutLogprobs) {
        this.model = model;
        this.withoutLogprobs = allowTrainingWithoutLogprobs;
    }

    /** A trained turn: its sampled ids and log-probabilities, or its text when it has none. */
    private record Turn(int[] ids, float[] logprobs, String text) {
    }

    /**
     * @param where names the conversation in messages, e.g. {@code trajectory_groups[0].trajectories[1]}
     * @return the sequence, empty when the conversation has no trained turn
     * @throws TrainingInputException naming what is wrong
     */
    Optional<TokenizedTurns.Turns> tokenize(Conversation conversation, String where) {
        List<Conversation.Turn> items = conversation.turns();
        List<Optional<Turn>> trained = new ArrayList<>();
        int lastTrained = -1;
        for (int i = 0; i < items.size(); i++) {
            trained.add(trainedTurn(items.get(i), where + ".messages_and_choices[" + i + "]"));
            if (trained.getLast().isPresent()) {
                lastTrained = i;
            }
        }
        if (lastTrained < 0) {
            return Optional.empty();
        }
        if (trained.stream().filter(Optional::isPresent).count() == 1) {
            return Optional.of(single(conversation, lastTrained, trained.get(lastTrained).get(), where));
        }
        List<Map<String, Object>> messages = new ArrayList<>();
        List<Turn> turns = new ArrayList<>();
        for (int i = 0; i <= lastTrained; i++) {
            if (trained.get(i).isPresent()) {
                Map<String, Object> marked = new LinkedHashMap<>();
                marked.put("role", "assistant");
                marked.put("content", MARK_OPEN + turns.size() + MARK_CLOSE);
                messages.add(marked);
                turns.add(trained.get(i).get());
            } else {
                messages.add(items.get(i).message());
            }
        }
        return Optional.of(splice(model.render(messages, conversation.tools(), false, true, where), turns, where));
    }

    /**
     * The common case of one trained turn: the tokens before it are exactly the prompt the sampler saw (the messages
     * before it with a generation prompt), not the template's rendering of an assistant message in history, which
     * can differ (Qwen3 writes an empty think block into a final assistant message that the sampler never saw).
     */
    private TokenizedTurns.Turns single(Conversation conversation, int at, Turn turn, String where) {
        List<Map<String, Object>> before = new ArrayList<>();
        for (int i = 0; i < at; i++) {
            before.add(conversation.turns().get(i).message());
        }
        String prompt = model.render(before, conversation.tools(), true, false, where);
        return append(new TokenizedTurns(model.tokenizer()).text(prompt), turn).build(model.maxLength(), where);
    }

    /** Appends a trained turn: its sampled ids with their logprobs, or its text tokenised. */
    private static TokenizedTurns append(TokenizedTurns out, Turn turn) {
        return turn.ids() != null ? out.trainedIds(turn.ids(), turn.logprobs()) : out.trainedText(turn.text());
    }

    private TokenizedTurns.Turns splice(String text, List<Turn> turns, String where) {
        TokenizedTurns out = new TokenizedTurns(model.tokenizer());
        int at = 0;
        for (int i = 0; i < turns.size(); i++) {
            String mark = MARK_OPEN + i + MARK_CLOSE;
            int found = text.indexOf(mark, at);
            if (found < 0) {
                throw new TrainingInputException(where + ": the chat template dropped a trained assistant turn, so "
                        + "its tokens cannot be placed");
            }
            append(out.text(text.substring(at, found)), turns.get(i));
            at = found + mark.length();
        }
        out.text(text.substring(at));
        return out.build(model.maxLength(), where);
    }

    private Optional<Turn> trainedTurn(Conversation.Turn item, String where) {
        if (item.sampled().isPresent()) {
            return Optional.of(sampled(item.sampled().get(), where));
        }
        if (withoutLogprobs && (item.choice() || "assistant".equals(item.message().get("role")))) {
            return Optional.of(new Turn(null, null, text(item.message().get("content"))));
        }
        return Optional.empty();
    }

    private Turn sampled(List<Conversation.Token> content, String where) {
        int[] ids = new int[content.size()];
        float[] logprobs = new float[content.size()];
        for (int i = 0; i < content.size(); i++) {
            Conversation.Token entry = content.get(i);
            OptionalLong id = tokenId(entry);
            if (id.isEmpty() || id.getAsLong() < 0 || id.getAsLong() >= model.vocabRows()) {
                throw new TrainingInputException(where + ".logprobs.content[" + i + "].token " + describe(entry.text())
                        + " names no token of the model; sample with logprobs and return_tokens_as_token_ids "
                        + "(tokens written token_id:N), as Crucible's chat completions do for trained models");
            }
            ids[i] = (int) id.getAsLong();
            logprobs[i] = entry.logprob() != null && Double.isFinite(entry.logprob())
                    ? entry.logprob().floatValue() : Float.NaN;
        }
        return new Turn(ids, logprobs, null);
    }

    /**
     * The sampled token's id, from the most to the least exact source: {@code token_id:N} (vLLM's
     * {@code return_tokens_as_token_ids}), the choice's {@code token_ids}, the entry's {@code bytes} (OpenAI's logprobs
     * carry each token's UTF-8 bytes, which name a byte-level BPE token), and last the token's text as written in the
     * vocabulary.
     */
    private OptionalLong tokenId(Conversation.Token entry) {
        if (entry.id() != null || entry.writtenAsId()) {
            return entry.id() != null ? OptionalLong.of(entry.id()) : OptionalLong.empty();
        }
        if (!entry.bytes().isEmpty()) {
            byte[] raw = new byte[entry.bytes().size()];
            for (int b = 0; b < raw.length; b++) {
                raw[b] = (byte) entry.bytes().get(b).intValue();
            }
            Integer id = byBytes().get(ByteBuffer.wrap(raw));
            if (id != null) {
                return OptionalLong.of(id);
            }
        }
        if (entry.text() == null) {
            return OptionalLong.empty();
        }
        var byText = model.tokenizer().tokenId(entry.text());
        return byText.isPresent() ? OptionalLong.of(byText.getAsInt()) : OptionalLong.empty();
    }

    /** Each token's bytes to its id (the lowest id where two share bytes), built on first need, once per job. */
    private Map<ByteBuffer, Integer> byBytes() {
        if (byBytes == null) {
            Map<ByteBuffer, Integer> index = new HashMap<>();
            for (int id = model.tokenizer().vocabSize() - 1; id >= 0; id--) {
                index.put(ByteBuffer.wrap(model.tokenizer().tokenBytes(id)), id);
            }
            byBytes = index;
        }
        return byBytes;
    }

    private static String text(Object content) {
        if (content instanceof String s) {
            return s;
        }
        if (content instanceof List<?> parts) {
            StringBuilder out = new StringBuilder();
            for (Object part : parts) {
                if (part instanceof Map<?, ?> p && p.get("text") instanceof String t) {
                    out.append(t);
                }
            }
            return out.toString();
        }
        return "";
    }

    private static String describe(Object value) {
        return value instanceof String s ? "'" + s + "'" : String.valueOf(value);
    }
}
