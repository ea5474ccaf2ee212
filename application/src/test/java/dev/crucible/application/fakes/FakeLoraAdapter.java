package dev.crucible.application.fakes;

import dev.crucible.engine.spi.LoraAdapter;

/** A stand-in adapter (rank 8, scaling 2) that remembers whether it was closed. */
public final class FakeLoraAdapter implements LoraAdapter {

    private boolean closed;

    @Override
    public int rank() {
        return 8;
    }

    @Override
    public double scaling() {
        return 2.0;
    }

    @Override
    public void close() {
        closed = true;
    }

    public boolean closed() {
        return closed;
    }
}
