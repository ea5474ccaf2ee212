package dev.crucible.application.blob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class ManifestNameTest {

    private static final StoredBlob BLOB = new StoredBlob(new BlobDigest("a".repeat(64)), 5);

    @Test
    void refusesNamesThatCouldLeaveTheirFolder() {
        for (String bad : new String[] {"", "/abs", "a/../b", "..", "a/./b", "a//b", "a/", "a\\b", "a b"}) {
            assertFalse(ManifestName.isValid(bad), bad);
            assertThrows(IllegalArgumentException.class, () -> new ManifestName(bad));
        }
        assertTrue(ManifestName.isValid("adapters/0f7c/step-12"));
    }

    @Property
    void everyValidNameStaysInsideTheFolderItIsResolvedIn(@ForAll @StringLength(max = 40) String text) {
        if (ManifestName.isValid(text)) {
            Path root = Path.of("/store/manifests");
            assertTrue(root.resolve(text).normalize().startsWith(root), text);
        }
    }

    @Property
    void aManifestsTextReadsBackAsTheSameManifest(@ForAll @StringLength(min = 1, max = 20) String path,
            @ForAll long size) {
        if (ManifestName.isValid(path) && size >= 0) {
            String other = path + "-other";
            BlobManifest manifest = BlobManifest.of(Map.of(path, BLOB, other, new StoredBlob(BLOB.digest(), size)));
            assertEquals(manifest, BlobManifest.parse(manifest.text()));
            assertEquals(manifest.digest(), BlobManifest.parse(manifest.text()).digest());
        }
    }

    @Property
    void textThatIsNotAManifestIsRefused(@ForAll String text) {
        try {
            BlobManifest.parse(text);
        } catch (IllegalArgumentException expected) {
            return;
        }
        assertTrue(text.lines().allMatch(l -> l.split(" ", 3).length == 3), text);
    }
}
