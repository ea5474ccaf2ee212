package dev.crucible.runtime.generation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntPredicate;

/**
 * The requests waiting to be admitted, bounded. Order: lower priority value first; within one priority the owners
 * take turns, round-robin by entity, then by key within the entity (each turn moves the served entity and key to the
 * back), then arrival within one key. A newcomer entity therefore waits behind at most one request of each entity
 * already waiting at its priority, however many those have queued.
 *
 * <p>Threading: thread-safe; {@link #offer} and {@link #remove} come from request threads, the rest from the
 * scheduling thread.
 */
final class WaitingQueue {

    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition nonEmpty = lock.newCondition();
    private final TreeMap<Integer, Map<String, Map<String, ArrayDeque<RequestState>>>> levels = new TreeMap<>();
    private int size;

    WaitingQueue(int capacity) {
        this.capacity = capacity;
    }

    /** Queues {@code request} unless {@code capacity} requests wait already; false when refused. */
    boolean offer(RequestState request) {
        lock.lock();
        try {
            if (size >= capacity) {
                return false;
            }
            RequestOwner owner = request.request.owner();
            levels.computeIfAbsent(request.request.priority(), p -> new LinkedHashMap<>())
                    .computeIfAbsent(owner.entity(), e -> new LinkedHashMap<>())
                    .computeIfAbsent(owner.key(), k -> new ArrayDeque<>()).addLast(request);
            size++;
            nonEmpty.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Waits up to {@code millis} for a request to wait; true when one does. */
    boolean awaitAny(long millis) throws InterruptedException {
        lock.lock();
        try {
            long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
            while (size == 0 && nanos > 0) {
                nanos = nonEmpty.awaitNanos(nanos);
            }
            return size > 0;
        } finally {
            lock.unlock();
        }
    }

    /** Takes the next request in turn if its {@code n} passes {@code fits}; empty when none waits or it does not. */
    Optional<RequestState> takeIf(IntPredicate fits) {
        lock.lock();
        try {
            if (size == 0) {
                return Optional.empty();
            }
            Map.Entry<Integer, Map<String, Map<String, ArrayDeque<RequestState>>>> level = levels.firstEntry();
            Map.Entry<String, Map<String, ArrayDeque<RequestState>>> entity = level.getValue().entrySet().iterator()
                    .next();
            Map.Entry<String, ArrayDeque<RequestState>> key = entity.getValue().entrySet().iterator().next();
            RequestState head = key.getValue().peekFirst();
            if (!fits.test(head.n())) {
                return Optional.empty();
            }
            key.getValue().removeFirst();
            size--;
            // The served key and entity go to the back of their turns (or leave, when nothing of theirs waits).
            entity.getValue().remove(key.getKey());
            if (!key.getValue().isEmpty()) {
                entity.getValue().put(key.getKey(), key.getValue());
            }
            level.getValue().remove(entity.getKey());
            if (!entity.getValue().isEmpty()) {
                level.getValue().put(entity.getKey(), entity.getValue());
            }
            if (level.getValue().isEmpty()) {
                levels.remove(level.getKey());
            }
            return Optional.of(head);
        } finally {
            lock.unlock();
        }
    }

    /** Removes {@code request} if it still waits (its turn order is kept for the others); true when it did. */
    boolean remove(RequestState request) {
        lock.lock();
        try {
            RequestOwner owner = request.request.owner();
            var level = levels.get(request.request.priority());
            var entity = level == null ? null : level.get(owner.entity());
            ArrayDeque<RequestState> key = entity == null ? null : entity.get(owner.key());
            if (key == null || !key.remove(request)) {
                return false;
            }
            size--;
            if (key.isEmpty()) {
                entity.remove(owner.key());
            }
            if (entity.isEmpty()) {
                level.remove(owner.entity());
            }
            if (level.isEmpty()) {
                levels.remove(request.request.priority());
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    /** The earliest {@code enqueuedNanos} of the waiting requests, if any wait. */
    Optional<Long> oldestEnqueuedNanos() {
        lock.lock();
        try {
            return levels.values().stream().flatMap(l -> l.values().stream()).flatMap(e -> e.values().stream())
                    .map(ArrayDeque::peekFirst).map(r -> r.enqueuedNanos).min(Long::compare);
        } finally {
            lock.unlock();
        }
    }

    /** Removes and returns every waiting request. */
    List<RequestState> drain() {
        lock.lock();
        try {
            List<RequestState> all = new ArrayList<>();
            for (Iterator<RequestState> it = levels.values().stream().flatMap(l -> l.values().stream())
                    .flatMap(e -> e.values().stream()).flatMap(ArrayDeque::stream).iterator(); it.hasNext(); ) {
                all.add(it.next());
            }
            levels.clear();
            size = 0;
            return all;
        } finally {
            lock.unlock();
        }
    }
}
