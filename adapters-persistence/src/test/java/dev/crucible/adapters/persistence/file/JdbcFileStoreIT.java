package dev.crucible.adapters.persistence.file;

import static dev.crucible.adapters.persistence.StoreContext.BOB;
import static dev.crucible.adapters.persistence.StoreContext.ADA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.file.FileQuota;
import dev.crucible.application.file.FileStore;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FileListRequest;
import dev.crucible.domain.file.FilePurpose;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Uploaded files' rows on a real PostgreSQL: tenant isolation, purpose filter and pages, the quota, deletion. */
class JdbcFileStoreIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final FileStore files = stores.bean(FileStore.class);

    private static StoredFile file(EntityName entity, FilePurpose purpose, long bytes, int second) {
        return new StoredFile(FileId.random(), entity, "d.jsonl", purpose, bytes,
                Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(second));
    }

    @Test
    void filesAreListedByPurposeInCreationOrderAndOnlyToTheirEntity() {
        StoredFile first = file(ADA, FilePurpose.FINE_TUNE, 10, 0);
        StoredFile batch = file(ADA, FilePurpose.BATCH, 10, 1);
        StoredFile second = file(ADA, FilePurpose.FINE_TUNE, 10, 2);
        List.of(first, batch, second, file(BOB, FilePurpose.FINE_TUNE, 10, 3)).forEach(files::insert);

        FileListRequest fineTune = FileListRequest.of(Optional.of(FilePurpose.FINE_TUNE), Optional.empty(), 1,
                SortOrder.ASC).orElseThrow();
        assertEquals(List.of(first, second), files.fetchPage(ADA, fineTune, Optional.empty()));
        assertEquals(List.of(second), files.fetchPage(ADA, fineTune, Optional.of(first)));
        assertEquals(Optional.of(batch), files.find(ADA, batch.id()));
        assertEquals(Optional.empty(), files.find(BOB, batch.id()));

        assertFalse(files.delete(BOB, batch.id()), "another entity's file");
        assertTrue(files.delete(ADA, batch.id()));
        assertEquals(Optional.empty(), files.find(ADA, batch.id()));
    }

    @Test
    void anUploadOverTheQuotaIsNotStoredAndSaysWhatIsStored() {
        FileQuota quota = new FileQuota(10, 100);
        assertEquals(Optional.empty(), files.insertWithin(file(ADA, FilePurpose.FINE_TUNE, 60, 0), quota));
        StoredFile tooBig = file(ADA, FilePurpose.FINE_TUNE, 41, 1);

        assertEquals(Optional.of(new FileStore.Stored(1, 60)), files.insertWithin(tooBig, quota));
        assertEquals(Optional.empty(), files.find(ADA, tooBig.id()));
    }
}
