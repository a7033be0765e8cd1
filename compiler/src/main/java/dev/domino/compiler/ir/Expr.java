package dev.domino.compiler.ir;

import java.util.List;

/**
 * A node of the grammar IR. Every front-end (GBNF, Lark, regex, JSON Schema) produces these;
 * the compiler splits them into terminals (regular) and a parser-level CFG.
 * Strings are sequences of Unicode code points; the compiler turns them into UTF-8 bytes.
 */
public sealed interface Expr {

    /** Concatenation. An empty list is the empty string. */
    record Seq(List<Expr> items) implements Expr {
        public Seq { items = HashedList.copyOf(items); }
    }

    /** Alternation. An empty list is the empty language (matches nothing). */
    record Alt(List<Expr> options) implements Expr {
        public Alt { options = HashedList.copyOf(options); }
    }

    /** {@code body{min,max}}; {@code max == UNBOUNDED} for {@code *} and {@code +}. */
    record Repeat(Expr body, int min, int max) implements Expr {
        public static final int UNBOUNDED = -1;
        public Repeat {
            if (min < 0 || (max != UNBOUNDED && max < min)) {
                throw new IllegalArgumentException("bad repetition {" + min + "," + max + "}");
            }
            // every front-end's counts (x{m,n}, minLength, maxItems...) pass here: one place for the budget
            dev.domino.compiler.CompileLimits.REPEAT_COUNT.check(Math.max(min, max));
        }
    }

    /** One code point out of a set. */
    record Chars(CodePointSet set) implements Expr {}

    /**
     * A regular language given as its minimal deterministic automaton over code points, not as an
     * expression: what the string algebra of JSON Schema computes (a pattern intersected with a format,
     * the complement of a pattern or an enum, a key language) goes into the grammar as is. Turning such
     * an automaton back into an expression by state elimination can take exponential size (the complement
     * of a 40-value enum: over 50,000 nodes); the automaton's size is its own. A regular leaf without
     * references, like {@link Chars}.
     */
    record Automaton(CodePointAutomaton dfa) implements Expr {}

    /** An exact string (code points). */
    record Literal(String text) implements Expr {}

    /** A reference to a named rule; line/column point at the reference for error messages. */
    record Ref(String name, int line, int column) implements Expr {}

    /**
     * A reference to whole tokens of the model's vocabulary, never their text: by text
     * ({@code <|eot_id|>}, {@code <think>}: each of {@code texts} is a token's exact text, brackets included) and/or by id
     * ranges ({@code <[128009]>}, {@code <[128000-128255]>}: {@code ranges} holds inclusive {lo, hi} pairs).
     * The reference names the union of those tokens; {@code negated} ({@code !<[id]>}, {@code <[^1-3]>}): any single
     * token but those. Resolved against a vocabulary when the grammar is compiled (an unknown token is an error there).
     */
    record TokenRef(List<String> texts, List<int[]> ranges, boolean negated, int line, int column) implements Expr {
        public TokenRef {
            texts = texts == null ? List.of() : List.copyOf(texts);
            ranges = ranges == null ? List.of() : List.copyOf(ranges);
            if (texts.isEmpty() && ranges.isEmpty() && !negated) throw new IllegalArgumentException("a token reference names a text or id ranges");
        }

        /** One token by text ({@code text} non-null) or tokens by id ranges. */
        public TokenRef(String text, List<int[]> ranges, boolean negated, int line, int column) {
            this(text == null ? List.of() : List.of(text), ranges, negated, line, column);
        }

        /** The token's text when the reference names exactly one text and no ids, else null. */
        public String text() { return texts.size() == 1 && ranges.isEmpty() ? texts.get(0) : null; }

        /** As written in a grammar: {@code <|eot_id|>}, {@code !<[1-3,7]>}, {@code !(<|a|>|<[5]>)} for a union. */
        public String display() {
            StringBuilder sb = new StringBuilder(negated ? "!" : "");
            int parts = texts.size() + (ranges.isEmpty() ? 0 : 1);
            if (parts == 0) return sb.append("<[*]>").toString();
            if (parts > 1) sb.append('(');
            for (int i = 0; i < texts.size(); i++) sb.append(i > 0 ? "|" : "").append(texts.get(i));
            if (!ranges.isEmpty()) {
                if (!texts.isEmpty()) sb.append('|');
                sb.append("<[");
                for (int i = 0; i < ranges.size(); i++) {
                    int[] r = ranges.get(i);
                    if (i > 0) sb.append(',');
                    sb.append(r[0]);
                    if (r[1] != r[0]) sb.append('-').append(r[1]);
                }
                sb.append("]>");
            }
            if (parts > 1) sb.append(')');
            return sb.toString();
        }
    }

    /**
     * The lazy reading of a regular language, as llguidance's lazy lexemes: {@code consume} true:
     * the matches of {@code body} none of whose proper prefixes match (a lazy regex's shortest
     * match); false: the texts none of whose prefixes match yet (what may precede a first match).
     * Free text up to a stop is {@code Lazy(.* stop, true)} (reasoning up to {@code </think>}, text
     * up to a trigger), text in which the stop never occurs {@code Lazy(.* stop, false)}. Its
     * automaton is the body's with the edges out of accepting states cut: inside free text a mask
     * ORs one precomputed set. The body must not match the empty string.
     */
    record Lazy(Expr body, boolean consume) implements Expr {
        /** Text up to and including the first occurrence of {@code stop}. */
        public static Lazy upTo(Expr stop) { return new Lazy(anyTextThen(stop), true); }

        /** Text in which {@code stop} does not occur. */
        public static Lazy without(Expr stop) { return new Lazy(anyTextThen(stop), false); }

        private static Expr anyTextThen(Expr stop) { return new Seq(List.of(star(new Chars(CodePointSet.ANY)), stop)); }
    }

    /**
     * Members in any order: a sentence is {@code m1 sep m2 sep ... mk} (k >= 0) where each
     * {@code mi} is a sentence of a distinct member or of {@code other}; every required member
     * occurs once, every optional one at most once, {@code other} any number of times, anywhere.
     * A JSON object's declared properties are the members, its additional properties the other.
     * The parser tracks the members seen (no rule per subset), so any number of members is fine.
     * {@code other} is {@link #NOTHING} when there is none, {@code separator} {@link #EMPTY} when
     * members simply follow each other. Members, other and separator must not match the empty string.
     * {@code minCount}/{@code maxCount} bound k, the number of members (declared and other together;
     * {@code maxCount} {@link Repeat#UNBOUNDED} for no maximum), as {@code minProperties}/{@code maxProperties} do.
     */
    record Perm(List<Member> members, Expr other, Expr separator, int minCount, int maxCount) implements Expr {
        public Perm {
            members = List.copyOf(members);
            if (minCount < 0 || maxCount < Repeat.UNBOUNDED) throw new IllegalArgumentException("bad member count bounds " + minCount + ".." + maxCount);
        }

        /** Members in any order without count bounds. */
        public Perm(List<Member> members, Expr other, Expr separator) { this(members, other, separator, 0, Repeat.UNBOUNDED); }

        public boolean isCounted() { return minCount > 0 || maxCount != Repeat.UNBOUNDED; }

        /** One member of a {@link Perm}. */
        public record Member(Expr body, boolean required) {}

        public boolean hasOther() { return !(other instanceof Alt a && a.options().isEmpty()); }

        public boolean hasSeparator() { return !(separator instanceof Seq s && s.items().isEmpty()); }

        /** Every child expression: members, then other and separator when present. */
        public List<Expr> children() {
            List<Expr> out = new java.util.ArrayList<>();
            for (Member m : members) out.add(m.body());
            if (hasOther()) out.add(other);
            if (hasSeparator()) out.add(separator);
            return out;
        }
    }

    /**
     * The strings of {@code text} made of {@code min..max} units: a {@code pattern} or {@code format}
     * under {@code minLength}/{@code maxLength}, the units being JSON string characters. {@code unit}
     * must be prefix-free (a string splits into units one way) and every string of {@code text} a
     * sequence of units; both regular and reference-free. Compiled as one counted terminal, the
     * automaton of {@code text} with a counter of units (see CountedLoop), whose size does not grow
     * with the bounds, where unrolling the bounds into an expression copies the pattern's tail once
     * per length. {@code origin} names the keyword and place for error messages.
     */
    record Units(Expr text, Expr unit, int min, int max, String origin) implements Expr {
        public Units {
            if (min < 0 || max < Math.max(min, 1)) throw new IllegalArgumentException("bad unit count bounds " + min + ".." + max);
            dev.domino.compiler.CompileLimits.REPEAT_COUNT.check(max);
        }
    }

    /**
     * A non-empty JSON array whose items are pairwise distinct values ({@code uniqueItems}):
     * {@code open item_0 (separator item_i){minItems-1,maxItems-1} close}, items compared by JSON equality,
     * item i being {@code prefix.get(i)} for the first {@code prefix.size()} positions ({@code prefixItems}) and
     * {@code item} after them ({@link #NOTHING} for none).
     * No context-free grammar expresses distinctness: the compiler keeps {@code open}, {@code separator}
     * and {@code close} as marked terminals of their own, and the runtime checks, beside the parser, that
     * the item each separator or close ends differs from the earlier ones (see the runtime's UniqueArrays).
     * {@code open}, {@code separator} and {@code close} must not match the empty string and carry the
     * whitespace around them, so that an item ends exactly where one of them starts.
     */
    record UniqueArray(Expr open, List<Expr> prefix, Expr item, Expr separator, Expr close, int minItems, int maxItems) implements Expr {
        public UniqueArray {
            prefix = List.copyOf(prefix);
            if (minItems < 1 || (maxItems != Repeat.UNBOUNDED && maxItems < minItems)) {
                throw new IllegalArgumentException("bad item count bounds " + minItems + ".." + maxItems);
            }
            dev.domino.compiler.CompileLimits.REPEAT_COUNT.check(Math.max(minItems, maxItems));
        }

        /** Without positional items. */
        public UniqueArray(Expr open, Expr item, Expr separator, Expr close, int minItems, int maxItems) {
            this(open, List.of(), item, separator, close, minItems, maxItems);
        }

        /** The schema of item i (0-based). */
        public Expr itemAt(int i) { return i < prefix.size() ? prefix.get(i) : item; }

        public List<Expr> children() {
            List<Expr> out = new java.util.ArrayList<>(List.of(open, item, separator, close));
            out.addAll(prefix);
            return out;
        }
    }

    Expr EMPTY = new Seq(List.of());
    Expr NOTHING = new Alt(List.of());

    static Expr seq(Expr... items) { return items.length == 1 ? items[0] : new Seq(List.of(items)); }
    static Expr alt(Expr... options) { return options.length == 1 ? options[0] : new Alt(List.of(options)); }
    static Expr optional(Expr e) { return new Repeat(e, 0, 1); }
    static Expr star(Expr e) { return new Repeat(e, 0, Repeat.UNBOUNDED); }
    static Expr plus(Expr e) { return new Repeat(e, 1, Repeat.UNBOUNDED); }
    static Expr literal(String s) { return new Literal(s); }
    static Expr chars(CodePointSet s) { return new Chars(s); }
    static Expr ref(String name) { return new Ref(name, 0, 0); }
}
