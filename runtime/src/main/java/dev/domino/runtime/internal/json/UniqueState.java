package dev.domino.runtime.internal.json;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where the output stands in its arrays of distinct items (see {@link UniqueArrays}): per open array, the
 * canonical forms of its completed items and the text of the current one. Immutable and shared: a commit
 * makes a new state that points at the old one's lists, so fork and rollback stay O(1) and one array's
 * memory is bounded by its own text.
 */
public final class UniqueState {
    public static final UniqueState EMPTY = new UniqueState(new Frame[0]);

    // Where an item of the innermost array stands.
    private static final int OPENING = 0, BEFORE = 1, STRING = 2, NUMBER = 3, LITERAL = 4, NESTED = 5, AFTER = 6, CLOSED = 7, LOST = 8;

    /** Which tokens a mask must step through the frames ({@link #candidates()}). */
    static final int COMMA = 0, QUOTE = 1, CLOSING = 2, ALL = 3;

    private final Frame[] frames;

    private UniqueState(Frame[] frames) { this.frames = frames; }

    /** Number of open arrays tracked. */
    public int openArrays() { return frames.length; }

    /** The distinct item values remembered, over all open arrays. */
    public int rememberedItems() {
        int n = 0;
        for (Frame f : frames) n += f.seen == null ? 0 : f.seen.size;
        return n;
    }

    /**
     * The smallest set of tokens that can meet a duplicate from here: with nothing remembered a token must
     * complete two items (it holds a comma); inside a string item it must close it (a quote); inside a nested
     * value it must close it (a bracket or brace, or a comma for a new array inside).
     */
    int candidates() {
        boolean anySeen = false;
        for (Frame f : frames) anySeen |= f.seen != null || f.phase == AFTER && f.currentDup;
        if (!anySeen) return COMMA;
        Frame inner = frames[frames.length - 1];
        return inner.phase == STRING ? QUOTE : inner.phase == NESTED ? CLOSING : ALL;
    }

    Cursor cursor() { return new Cursor(this); }

    /** Canonical forms of the completed items: a persistent list. */
    private record Seen(byte[] canonical, int hash, Seen next, int size) {
        boolean contains(byte[] c, int h) {
            for (Seen s = this; s != null; s = s.next) if (s.hash == h && Arrays.equals(s.canonical, c)) return true;
            return false;
        }
    }

    /** The current item's text so far: a persistent list of chunks, newest first. */
    private record ItemText(byte[] chunk, ItemText previous, int length) {}

    private record Frame(int phase, int depth, boolean inString, boolean escaped, boolean currentDup, byte[] canonical, Seen seen, ItemText text) {}

    /** A mutable copy of the frames that steps bytes; {@link #snapshot()} gives the state after them. */
    final class Cursor {
        private final List<MutableFrame> open = new ArrayList<>();

        Cursor(UniqueState from) { reset(from); }

        void reset(UniqueState from) {
            open.clear();
            for (Frame f : from.frames) open.add(new MutableFrame(f));
        }

        /** Whether byte b, starting a separator or closing there, would end an item equal to an earlier one. */
        boolean duplicateEndsAt(int b) {
            if (!(b == ',' || b == ']' || isWs(b))) return false;
            for (MutableFrame f : open) {
                if (f.currentDup && (f.phase == AFTER || (f.phase == NUMBER || f.phase == LITERAL) && !continuesItem(f.phase, b))) return true;
            }
            return false;
        }

        /** A new array of distinct items opens at this byte (its '['). */
        void open() { open.add(new MutableFrame()); }

        /** Steps byte b through every frame; true when it completes an item equal to an earlier one. */
        boolean step(int b) {
            boolean dup = false;
            for (MutableFrame f : open) dup |= f.step(b);
            open.removeIf(f -> f.phase == CLOSED || f.phase == LOST);
            return dup;
        }

        /** Whether stepping {@code bytes} from {@code state} meets a duplicate, opening a frame at every '[' (a superset of the real frames). */
        boolean meetsDuplicate(UniqueState state, byte[] bytes) {
            reset(state);
            for (byte value : bytes) {
                int b = value & 0xFF;
                if (duplicateEndsAt(b)) return true;
                if (b == '[') open();
                if (step(b)) return true;
            }
            return false;
        }

        UniqueState snapshot() {
            Frame[] out = new Frame[open.size()];
            for (int i = 0; i < out.length; i++) out[i] = open.get(i).freeze();
            return out.length == 0 ? EMPTY : new UniqueState(out);
        }
    }

    private static boolean isWs(int b) { return b == ' ' || b == '\t' || b == '\n' || b == '\r'; }

    private static boolean continuesItem(int phase, int b) {
        if (phase == NUMBER) return b >= '0' && b <= '9' || b == '.' || b == 'e' || b == 'E' || b == '+' || b == '-';
        return b >= 'a' && b <= 'z';
    }

    /** One open array while bytes are stepped. */
    private static final class MutableFrame {
        int phase, depth;
        boolean inString, escaped, currentDup;
        byte[] canonical;
        Seen seen;
        ItemText prior;
        byte[] buf = new byte[16];
        int bufLength;

        MutableFrame() { phase = OPENING; }

        MutableFrame(Frame f) {
            phase = f.phase; depth = f.depth; inString = f.inString; escaped = f.escaped; currentDup = f.currentDup;
            canonical = f.canonical; seen = f.seen; prior = f.text;
        }

        Frame freeze() {
            ItemText text = prior;
            if (bufLength > 0) text = new ItemText(Arrays.copyOf(buf, bufLength), prior, (prior == null ? 0 : prior.length) + bufLength);
            return new Frame(phase, depth, inString, escaped, currentDup, canonical, seen, text);
        }

        private void append(int b) {
            if (bufLength == buf.length) buf = Arrays.copyOf(buf, bufLength * 2);
            buf[bufLength++] = (byte) b;
        }

        private byte[] itemText() {
            int priorLength = prior == null ? 0 : prior.length;
            byte[] all = new byte[priorLength + bufLength];
            System.arraycopy(buf, 0, all, priorLength, bufLength);
            int end = priorLength;
            for (ItemText t = prior; t != null; t = t.previous) {
                end -= t.chunk.length;
                System.arraycopy(t.chunk, 0, all, end, t.chunk.length);
            }
            return all;
        }

        /** The item's text is (perhaps) a complete value now: remember its form and whether it is a duplicate. */
        private boolean completed() {
            byte[] text = itemText();
            canonical = CanonicalJson.of(text, 0, text.length);
            currentDup = canonical != null && seen != null && seen.contains(canonical, Arrays.hashCode(canonical));
            return currentDup;
        }

        private void startItem(int b, int phase) {
            prior = null;
            bufLength = 0;
            canonical = null;
            currentDup = false;
            append(b);
            this.phase = phase;
        }

        boolean step(int b) {
            switch (phase) {
                case OPENING -> phase = b == '[' ? BEFORE : LOST;
                case BEFORE -> {
                    if (isWs(b)) return false;
                    if (b == ']') phase = CLOSED;
                    else if (b == '"') startItem(b, STRING);
                    else if (b == '-' || b >= '0' && b <= '9') { startItem(b, NUMBER); return b != '-' && completed(); }
                    else if (b == 't' || b == 'f' || b == 'n') startItem(b, LITERAL);
                    else if (b == '{' || b == '[') { startItem(b, NESTED); depth = 1; inString = false; escaped = false; }
                    else phase = LOST;
                }
                case STRING -> {
                    append(b);
                    if (escaped) escaped = false;
                    else if (b == '\\') escaped = true;
                    else if (b == '"') { phase = AFTER; return completed(); }
                }
                case NUMBER, LITERAL -> {
                    if (continuesItem(phase, b)) {
                        append(b);
                        boolean mayBeComplete = phase == NUMBER ? b >= '0' && b <= '9' : b == 'e' || b == 'l';
                        if (mayBeComplete) return completed();
                        canonical = null;
                        currentDup = false;
                        return false;
                    }
                    if (canonical == null) { phase = LOST; return false; }
                    phase = AFTER;
                    after(b);
                }
                case NESTED -> {
                    append(b);
                    if (inString) {
                        if (escaped) escaped = false;
                        else if (b == '\\') escaped = true;
                        else if (b == '"') inString = false;
                    } else if (b == '"') inString = true;
                    else if (b == '{' || b == '[') depth++;
                    else if (b == '}' || b == ']') {
                        if (--depth == 0) { phase = AFTER; return completed(); }
                    }
                }
                case AFTER -> after(b);
                default -> { }
            }
            return false;
        }

        private void after(int b) {
            if (isWs(b)) return;
            if (b == ',') {
                if (!currentDup && canonical != null) seen = new Seen(canonical, Arrays.hashCode(canonical), seen, seen == null ? 1 : seen.size + 1);
                prior = null;
                bufLength = 0;
                canonical = null;
                currentDup = false;
                phase = BEFORE;
            } else if (b == ']') phase = CLOSED;
            else phase = LOST;
        }
    }
}
