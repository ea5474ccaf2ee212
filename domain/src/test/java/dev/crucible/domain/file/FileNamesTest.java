package dev.crucible.domain.file;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertInvalid;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FileNamesTest {

    @Test
    void keepsOnlyTheLastPathSegment() {
        assertEquals("train.jsonl", value(FileNames.of("train.jsonl")));
        assertEquals("train.jsonl", value(FileNames.of("/home/me/data/train.jsonl")));
        assertEquals("train.jsonl", value(FileNames.of("C:\\data\\train.jsonl")));
        assertEquals("my data.jsonl", value(FileNames.of("  my data.jsonl ")));
    }

    @Test
    void noNameIsUpload() {
        assertEquals("upload", value(FileNames.of(null)));
        assertEquals("upload", value(FileNames.of("")));
        assertEquals("upload", value(FileNames.of("dir/")));
    }

    @Test
    void refusesLongNamesAndControlCharacters() {
        assertEquals("x".repeat(255), value(FileNames.of("x".repeat(255))));
        assertInvalid(FileNames.of("x".repeat(256)), "file", "file name must be at most 255 characters, got 256");
        assertInvalid(FileNames.of("a\u0000b"), "file", "file name must not contain control characters");
    }
}
