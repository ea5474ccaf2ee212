package dev.crucible.engine.djl;

import dev.crucible.hf.config.Architecture;
import java.util.ArrayList;
import java.util.List;

/** Texts that exercise a byte-level BPE tokenizer: rendered chat templates, unicode, emoji, code and whitespace. */
final class TokenizerTexts {

    static final String CHATML = "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n"
            + "What's 2+2? Answer in 中文 😀<|im_end|>\n<|im_start|>assistant\n<think>\nSimple.\n</think>\n\n"
            + "2+2=4, 四.<|im_end|>\n";
    static final String LLAMA3 = "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief."
            + "<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHi there! 👋<|eot_id|>"
            + "<|start_header_id|>assistant<|end_header_id|>\n\n";

    private static final List<String> COMMON = List.of("Hello, world!",
            "The quick brown fox jumps over the lazy dog.", "", " ", "   leading", "trailing   ", "\n", "\n\n\n",
            "a\r\nb\r\n", "tabs\tand\t\ttabs",
            "I'll say it's fine; WE'RE sure they'D agree, don't you?", "numbers 0 12 345 6789 1234567 3.14159",
            "ünïcödé café crème brûlée naïve", "你好，世界！", "こんにちは", "Привет, мир!",
            "emoji 😀🎉👍🏽 and a family 👨‍👩‍👧", "zero\u200Bwidth", "no\u00A0break\u3000space",
            "def f(x):\n    return x * 2\n\nprint(f(21))\n",
            "public static void main(String[] args) { System.out.println(\"hi\"); }",
            "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Berlin\"}}", "<|not_a_token|>", "<|im_start|",
            "C:\\path\\to\\file.txt");

    private TokenizerTexts() {
    }

    /** The family's added tokens, in the order the tiny models add them; the first three are special. */
    static List<String> addedTokens(Architecture arch) {
        return arch == Architecture.LLAMA
                ? List.of("<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>", "<|end_header_id|>",
                        "<|eot_id|>")
                : List.of("<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>", "<tool_call>",
                        "</tool_call>");
    }

    /** Whether a tiny model of {@code arch} marks {@code token} special (Qwen's reasoning and tool tags are not). */
    static boolean special(Architecture arch, String token) {
        return arch == Architecture.LLAMA || token.startsWith("<|");
    }

    static List<String> all(Architecture arch) {
        List<String> texts = new ArrayList<>(COMMON);
        texts.addAll(addedTokens(arch));
        texts.add(String.join("", addedTokens(arch)));
        texts.add(arch == Architecture.LLAMA ? LLAMA3 : CHATML);
        return texts;
    }
}
