package dev.crucible.domain.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FileIdTest {

    @Test
    void writesFilePrefixAndThirtyTwoHexDigits() {
        FileId id = new FileId(UUID.fromString("0190f3a1-1234-7abc-8def-0123456789ab"));
        assertEquals("file-0190f3a112347abc8def0123456789ab", id.toString());
    }

    @Test
    void parsesWhatItWrites() {
        FileId id = FileId.random();
        assertEquals(Optional.of(id), FileId.parse(id.toString()));
        assertEquals(Optional.of(new FileId(new UUID(-1, 0))), FileId.parse("file-ffffffffffffffff0000000000000000"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "file-", "file-abc", "file-0190F3A112347ABC8DEF0123456789AB",
        "0190f3a1-1234-7abc-8def-0123456789ab", "file-0190f3a112347abc8def0123456789ab0", "File-0190f3a112347abc8def0123456789ab",
        "file-0190f3a1-1234-7abc-8def-0123456789ab"})
    void refusesOtherShapes(String text) {
        assertEquals(Optional.empty(), FileId.parse(text));
    }

    @Test
    void aPrefixMarksAnIntendedFileId() {
        assertTrue(FileId.looksLikeOne("file-nope"));
        assertFalse(FileId.looksLikeOne("file:///data/x.jsonl"));
        assertFalse(FileId.looksLikeOne(null));
    }

    @Test
    void purposesAreOpenAisNames() {
        assertEquals(Optional.of(FilePurpose.FINE_TUNE), FilePurpose.parse("fine-tune"));
        assertEquals(Optional.of(FilePurpose.USER_DATA), FilePurpose.parse("user_data"));
        assertEquals(Optional.empty(), FilePurpose.parse("fine_tune"));
        assertEquals("'assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'", FilePurpose.names());
    }
}
