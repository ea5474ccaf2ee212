package dev.crucible.application.dataset;

import dev.crucible.domain.dataset.Dataset;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * A dataset and its rows, read {@value #PAGE} at a time as they are iterated: a download never holds the whole
 * dataset. Not thread-safe; iterate once.
 */
public final class DatasetContent implements Iterable<String> {

    static final int PAGE = 500;
    private final Dataset dataset;
    private final DatasetStore store;

    public DatasetContent(Dataset dataset, DatasetStore store) {
        this.dataset = Objects.requireNonNull(dataset, "dataset");
        this.store = Objects.requireNonNull(store, "store");
    }

    public Dataset dataset() {
        return dataset;
    }

    /** The JSONL lines, without their newlines, in order. */
    @Override
    public Iterator<String> iterator() {
        return new Iterator<>() {
            private List<String> page = List.of();
            private int read;
            private int index;

            @Override
            public boolean hasNext() {
                if (index == page.size() && read < dataset.rows()) {
                    page = store.lines(dataset.id(), read, PAGE);
                    read += page.size();
                    index = 0;
                    if (page.isEmpty()) {
                        read = dataset.rows();
                    }
                }
                return index < page.size();
            }

            @Override
            public String next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return page.get(index++);
            }
        };
    }
}
