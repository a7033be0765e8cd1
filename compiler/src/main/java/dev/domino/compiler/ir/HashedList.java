package dev.domino.compiler.ir;

import java.util.AbstractList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The immutable item list of a {@link Expr.Seq} or {@link Expr.Alt}, with its hash computed once. IR trees are
 * immutable and are hashed again and again as keys of the compiler's caches (languages, terminals, length
 * bounds); a record's hash recomputes every nested list, so each lookup cost the size of the whole subtree.
 * Same {@code equals} and {@code hashCode} as any {@link List} of the same elements.
 */
final class HashedList<E> extends AbstractList<E> implements RandomAccess {
    private final Object[] items;
    private int hash; // 0: not computed yet (a computed 0 is recomputed, which is harmless)

    private HashedList(Object[] items) { this.items = items; }

    /** An immutable copy (no nulls, as {@link List#copyOf}); the list itself when it is already one. */
    @SuppressWarnings("unchecked")
    static <E> List<E> copyOf(Collection<? extends E> source) {
        if (source instanceof HashedList<?> h) return (List<E>) h;
        Object[] a = source.toArray();
        for (Object o : a) Objects.requireNonNull(o);
        return new HashedList<>(a);
    }

    @SuppressWarnings("unchecked")
    @Override public E get(int index) { return (E) items[index]; }

    @Override public int size() { return items.length; }

    @Override public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = 1;
            for (Object o : items) h = 31 * h + o.hashCode();
            hash = h;
        }
        return h;
    }

    @Override public boolean equals(Object o) {
        if (o == this) return true;
        if (o instanceof HashedList<?> other) {
            if (other.items.length != items.length || other.hashCode() != hashCode()) return false;
            for (int i = 0; i < items.length; i++) {
                if (items[i] != other.items[i] && !items[i].equals(other.items[i])) return false;
            }
            return true;
        }
        return super.equals(o);
    }
}
