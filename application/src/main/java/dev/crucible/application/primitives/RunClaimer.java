package dev.crucible.application.primitives;

import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.job.TrainingObserver;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.usage.UsageRecorder;
import dev.crucible.domain.model.ModelId;
import dev.crucible.kernel.lifecycle.ThreadStop;
import dev.crucible.kernel.refusal.Outcome;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A worker's side of the Tinker API when {@code api} processes only queue operations: on its own thread, every poll
 * interval (and at once when one of its operations finishes) it renews the leases of the runs it owns, drops those it
 * lost, claims runs with queued operations up to its capacity, and hands each owned run's next queued operation,
 * lowest {@code seq_id} first and one at a time, to the run's sequencer. A claimed run starts from its last saved
 * state (the newest checkpoint of its model, adapter and optimiser state, read through the blob store): what the
 * previous owner did after its last save is lost (docs/decisions.md). Polling only: the operations an api process
 * writes wake nothing here, so a new operation waits at most one poll interval.
 */
public final class RunClaimer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RunClaimer.class.getName());

    private final RunLeases leases;
    private final LiveRuns live;
    private final ServedModels served;
    private final PrimitiveStore store;
    private final CheckpointStore checkpoints;
    private final AdapterFiles adapters;
    private final OperationExecution execution;
    private final RunWork work;
    private final UUID self;
    private final int capacity;
    private final Duration lease;
    private final Duration poll;
    private final Clock clock;
    private final Thread thread;
    /** The runs this worker holds live; touched only on its thread. */
    private final Map<ModelId, LiveRun> owned = new HashMap<>();
    /** The runs with an operation on their sequencer. */
    private final Set<ModelId> busy = ConcurrentHashMap.newKeySet();
    private final Object wake = new Object();
    private boolean woken;
    private volatile boolean stopping;

    /**
     * @param self     this worker's process id (operations it takes carry it, so they fail if it dies)
     * @param capacity the most runs it holds at once
     * @param lease    how long a lease lasts unrenewed: how long a dead owner's run waits for another worker
     * @param poll     how often it looks for new operations and renews its leases; well under {@code lease}
     */
    public RunClaimer(RunLeases leases, LiveRuns live, ServedModels served, PrimitiveStore store, OperationLog log,
            OperationSignals signals, CheckpointStore checkpoints, AdapterFiles adapters, PrimitiveLimits limits,
            UsageRecorder usage, TrainingObserver observer, UUID self, int capacity, Duration lease, Duration poll,
            Clock clock) {
        this.leases = Objects.requireNonNull(leases, "leases");
        this.live = Objects.requireNonNull(live, "live");
        this.served = Objects.requireNonNull(served, "served");
        this.store = Objects.requireNonNull(store, "store");
        this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoints");
        this.adapters = Objects.requireNonNull(adapters, "adapters");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.execution = new OperationExecution(log, signals, clock);
        this.work = RunWork.of(store, checkpoints, adapters, limits, usage, observer, clock);
        this.self = Objects.requireNonNull(self, "self");
        if (capacity < 1 || lease.compareTo(poll.multipliedBy(2)) < 0 || poll.isNegative() || poll.isZero()) {
            throw new IllegalArgumentException("need capacity >= 1 and a lease of at least two poll intervals, got "
                    + capacity + ", " + lease + ", " + poll);
        }
        this.capacity = capacity;
        this.lease = lease;
        this.poll = poll;
        this.thread = Thread.ofPlatform().name("run-claimer").daemon().unstarted(this::loop);
    }

    public synchronized void start() {
        if (!thread.isAlive() && !stopping) {
            thread.start();
        }
    }

    private void loop() {
        while (!stopping) {
            try {
                round();
            } catch (RuntimeException e) {
                if (!stopping) {
                    LOG.log(Level.WARNING, "claiming training runs failed; retrying after the next wait", e);
                }
            }
            try {
                synchronized (wake) {
                    if (!woken) {
                        wake.wait(Math.max(1, poll.toMillis()));
                    }
                    woken = false;
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void wake() {
        synchronized (wake) {
            woken = true;
            wake.notifyAll();
        }
    }

    /** Renews, drops, claims and feeds; one round of the loop. */
    void round() {
        Instant now = clock.instant();
        Set<ModelId> leased = leases.renew(self, now.plus(lease));
        ClaimPlan plan = ClaimPlan.of(owned.keySet(), leased, capacity);
        for (ModelId lost : plan.drop()) {
            owned.remove(lost);
            live.unload(lost);
        }
        for (ModelId unheld : leased) {
            if (!owned.containsKey(unheld)) {
                leases.release(self, unheld); // leased by this process but not held live: for another worker
            }
        }
        if (plan.free() > 0) {
            for (RunLeases.Claimed claimed : leases.claim(self, plan.free(), now, now.plus(lease))) {
                adopt(claimed);
            }
        }
        for (Map.Entry<ModelId, LiveRun> run : owned.entrySet()) {
            if (!busy.contains(run.getKey())) {
                feed(run.getValue());
            }
        }
    }

    /** Holds a claimed run live, from its last saved state; gives it back when it cannot. */
    private void adopt(RunLeases.Claimed claimed) {
        ModelId id = claimed.run();
        Optional<TrainingRun> run = store.findRun(claimed.entity(), id);
        Optional<ServedModel> base = run.flatMap(r -> served.find(r.baseModel()));
        if (run.isEmpty() || base.isEmpty()) {
            if (run.isPresent()) {
                LOG.warning("training run " + id + " needs base model " + run.get().baseModel()
                        + ", which this worker does not serve; given back");
            }
            leases.release(self, id);
            return;
        }
        if (!(live.open(run.get(), base.get()) instanceof Outcome.Done<LiveRun> opened)) {
            leases.release(self, id);
            return;
        }
        LiveRun held = opened.value();
        try {
            restore(held);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "training run " + id + " could not load its last saved state; given back", e);
            live.unload(id);
            leases.release(self, id);
            return;
        }
        owned.put(id, held);
    }

    /** Starts the run's trainer from its newest checkpoint, when it has one past the empty step 0. */
    private void restore(LiveRun run) {
        ModelId model = run.run().model();
        int step = checkpoints.steps(model).stream().mapToInt(Integer::intValue).max().orElse(0);
        if (step > 0) {
            Path folder = adapters.stepFolder(model, step).orElseThrow(() -> new IllegalStateException("checkpoint "
                    + step + " of run " + model + " has no files"));
            run.markStarted();
            run.trainer(Optional.of(folder));
            LOG.info("training run " + model + " continues from its checkpoint " + step);
        }
    }

    /** Takes the run's next queued operation, if any, and runs it on the run's sequencer. */
    private void feed(LiveRun run) {
        ModelId model = run.run().model();
        Optional<QueuedOperation> next = leases.take(self, model);
        if (next.isEmpty()) {
            return;
        }
        QueuedOperation op = next.get();
        Outcome<RunWork.Work> checked = work.check(op.command(), run.base(), op.caller());
        busy.add(model);
        run.sequencer().submit(op.seqId(), () -> {
            try {
                execution.run(op.requestId(), switch (checked) {
                    case Outcome.Done<RunWork.Work> done -> done.value().task(run);
                    case Outcome.Refused<RunWork.Work> refused -> () -> Outcome.refused(refused.refusal());
                });
                if (op.command() instanceof RunCommand.Unload) {
                    leases.unloaded(self, model, SubmitRunOperationService.notLoaded(model).message(),
                            clock.instant());
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "after operation " + op.requestId() + " of run " + model, e);
            } finally {
                busy.remove(model);
                wake();
            }
        });
    }

    /** Stops claiming and gives back every run it holds, so that another worker takes them over at once. */
    @Override
    public void close() {
        stopping = true;
        ThreadStop.interruptAndJoin(thread, Duration.ofSeconds(5));
        for (ModelId id : List.copyOf(owned.keySet())) {
            try {
                leases.release(self, id);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "could not give back training run " + id + "; its lease will run out", e);
            }
        }
    }
}
