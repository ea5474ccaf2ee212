package dev.crucible.hf.tokenizer;

import dev.crucible.hf.config.Architecture;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;

/** Texts that exercise a byte-level BPE tokenizer's corners: specials, unicode, code, numbers and whitespace. */
final class TokenizerSamples {

    /** A rendered Qwen chat, long enough to be many tokens when repeated. */
    static final String CHATML = "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n"
            + "What's 2+2? Answer in 中文 😀<|im_end|>\n<|im_start|>assistant\n<think>\nSimple.\n</think>\n\n"
            + "2+2=4, 四.<|im_end|>\n";

    private static final List<String> COMMON = List.of("Hello world", "Hello, world! How are you today?",
            "The quick brown fox jumps over the lazy dog.", "", " ", "   leading spaces", "trailing spaces   ",
            "\n", "\n\n\n", "a\r\nb\r\n", "line one\nline two\n\n  indented", "tabs\tand\t\ttabs",
            "I'll say it's fine; WE'RE sure they'D agree, don't you?", "numbers 0 12 345 6789 1234567 3.14159 1e-6",
            "2024-01-15T12:30:00Z costs $19.99 (or 5,000 EUR)", "ünïcödé café crème brûlée naïve",
            "decomposed e\u0301 and composed é", "你好，世界！今天天气很好。", "こんにちは、世界", "Привет, мир!",
            "emoji 😀🎉👍🏽 and a family 👨‍👩‍👧", "zero\u200Bwidth", "no\u00A0break and ideographic\u3000space",
            "em\u2003space and nel\u0085here", "def f(x):\n    return x * 2\n\nprint(f(21))\n",
            "public static void main(String[] args) { System.out.println(\"hi\"); }",
            "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Berlin\"}}", "a<b>c</b> && x|y || z",
            "<|im_start|", "<|not_a_token|>", "<thinking>", "C:\\path\\to\\file.txt");

    private TokenizerSamples() {
    }

    /** The family's added tokens, in the order the tiny models add them. */
    static List<String> specials(Architecture arch) {
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

    /** The text as the family's normalizer leaves it: NFC for Qwen, as it is for Llama 3. */
    static String normalized(Architecture arch, String text) {
        return arch == Architecture.LLAMA ? text : Normalizer.normalize(text, Normalizer.Form.NFC);
    }

    static List<String> all(Architecture arch) {
        List<String> texts = new ArrayList<>(COMMON);
        texts.addAll(specials(arch));
        texts.add(String.join("", specials(arch)));
        if (arch == Architecture.LLAMA) {
            texts.add("<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi there!<|eot_id|>"
                    + "<|start_header_id|>assistant<|end_header_id|>\n\n");
        } else {
            texts.add("<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n"
                    + "<|im_start|>assistant\n<think>\nThe user greets me.\n</think>\n\nHello!<|im_end|>");
            texts.add("<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call><|endoftext|>");
            texts.add(CHATML);
        }
        return texts;
    }
}
