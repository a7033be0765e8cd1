package dev.domino.compiler.testing;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.ExprPrinter;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random sentences of a {@link Grammar}, for tests. Alternatives and repeat counts are chosen at
 * random until a depth or length budget runs out; after that every choice takes the option of
 * least derivation <em>height</em> (precomputed per rule), which strictly shrinks along every
 * rule reference and so always terminates. (Least length would not: {@code A -> A | ε} has
 * length 0 both ways.)
 *
 * <p>Ignored text ({@link Grammar#ignored()}) is sometimes inserted at the start and after each
 * terminal occurrence, with the same meaning as in {@link ByteEarleyOracle}.
 */
public final class SentenceSampler {
    private static final int INF = Integer.MAX_VALUE / 2;
    /** Multi-byte code points worth trying when a set allows them: 2, 2, 3, 3, 3, 4 bytes. */
    private static final int[] SHOWCASE = {0xE9, 0x3B1, 0x20AC, 0x4E2D, 0x2028, 0x1F600};

    private final Grammar grammar;
    private final Map<String, Integer> ruleHeight = new HashMap<>();
    private int maxDepth = 12;
    private int maxLength = 200;
    private double ignoreProbability = 0.3;

    public SentenceSampler(Grammar grammar) {
        this.grammar = grammar;
        for (String name : grammar.rules().keySet()) ruleHeight.put(name, INF);
        // Least derivation height per rule: a decreasing fixpoint from "infinite".
        for (boolean changed = true; changed; ) {
            changed = false;
            for (Map.Entry<String, Expr> r : grammar.rules().entrySet()) {
                int h = height(r.getValue());
                int value = h >= INF ? INF : h + 1;
                if (value < ruleHeight.get(r.getKey())) { ruleHeight.put(r.getKey(), value); changed = true; }
            }
        }
    }

    /** Reference depth after which choices become minimal (default 12). */
    public SentenceSampler maxDepth(int depth) { this.maxDepth = depth; return this; }

    /** Output length (chars) after which choices become minimal (default 200); a soft limit. */
    public SentenceSampler maxLength(int length) { this.maxLength = length; return this; }

    /** Out of 100, how often an item of an array of distinct items repeats an earlier one (an invalid sentence, for tests). */
    private int duplicatePercent;

    /** Makes {@code percent}% of the items of arrays of distinct items copies of earlier ones: sentences to refuse. */
    public SentenceSampler duplicates(int percent) { this.duplicatePercent = percent; return this; }

    /** Chance of inserting ignored text at each place it may go (default 0.3). */
    public SentenceSampler ignoreProbability(double p) { this.ignoreProbability = p; return this; }

    /** Whether the start rule derives any sentence at all. */
    public boolean languageIsEmpty() { return ruleHeight.getOrDefault(grammar.start(), INF) >= INF; }

    /** A random sentence of the grammar. */
    public String sample(Random random) {
        if (languageIsEmpty()) throw new IllegalStateException("the grammar derives no sentence");
        Gen gen = new Gen(random);
        gen.maybeIgnored();
        gen.emit(new Expr.Ref(grammar.start(), 0, 0), false, 0);
        return gen.out.toString();
    }

    /** Least derivation height of {@code e} given the current rule heights (INF if none). */
    private int height(Expr e) {
        if (e instanceof Expr.Ref r) {
            Integer h = ruleHeight.get(r.name());
            if (h == null) throw new GrammarException("undefined rule '" + r.name() + "'", r.line(), r.column());
            return h;
        } else if (e instanceof Expr.Seq s) {
            int h = 0;
            for (Expr x : s.items()) h = Math.max(h, height(x));
            return h;
        } else if (e instanceof Expr.Alt a) {
            int h = INF;
            for (Expr x : a.options()) h = Math.min(h, height(x));
            return h;
        } else if (e instanceof Expr.Repeat rep) {
            return rep.min() == 0 ? 0 : height(rep.body());
        } else if (e instanceof Expr.Perm p) {
            // the required members, then the lowest optional ones (or others) up to minCount, joined by separators
            int h = 0, required = 0;
            List<Integer> optional = new ArrayList<>();
            for (Expr.Perm.Member m : p.members()) {
                if (m.required()) { h = Math.max(h, height(m.body())); required++; }
                else if (height(m.body()) < INF) optional.add(height(m.body()));
            }
            int fewest = Math.max(required, p.minCount());
            if (p.maxCount() != Expr.Repeat.UNBOUNDED && fewest > p.maxCount()) return INF;
            java.util.Collections.sort(optional);
            for (int i = 0; i < fewest - required; i++) {
                int next = i < optional.size() ? optional.get(i) : p.hasOther() ? height(p.other()) : INF;
                h = Math.max(h, next);
            }
            if (fewest > 1 && p.hasSeparator()) h = Math.max(h, height(p.separator()));
            return h;
        } else if (e instanceof Expr.Units u) {
            return height(u.text());
        } else if (e instanceof Expr.UniqueArray u) {
            int h = Math.max(height(u.open()), height(u.close()));
            for (int i = 0; i < Math.max(1, u.minItems()); i++) h = Math.max(h, height(u.itemAt(i)));
            return u.minItems() > 1 ? Math.max(h, height(u.separator())) : h;
        } else if (e instanceof Expr.Chars c) {
            return c.set().isEmpty() ? INF : 0;
        } else if (e instanceof Expr.Automaton a) {
            return a.dfa().isEmpty() ? INF : 0;
        } else {
            return 0; // Literal
        }
    }

    /** Per state of a (minimal, so all live) code point automaton: the fewest code points to an accepting state. */
    private static int[] distancesToAccept(dev.domino.compiler.ir.CodePointAutomaton dfa) {
        int n = dfa.stateCount();
        int[] dist = new int[n];
        java.util.Arrays.fill(dist, INF);
        for (int q = 0; q < n; q++) if (dfa.isAccepting(q)) dist[q] = 0;
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int q = 0; q < n; q++) {
                for (int r = dfa.firstRange(q); r < dfa.endRange(q); r++) {
                    int t = dfa.target(r);
                    if (dist[t] < INF && dist[t] + 1 < dist[q]) { dist[q] = dist[t] + 1; changed = true; }
                }
            }
        }
        return dist;
    }

    private final Map<Expr, dev.domino.runtime.internal.scan.ByteDfa> unitLoops = new HashMap<>();

    /** Units of {@code u} in text (a unit starts where the unit loop is at its start or accepts); -1 if not units. */
    private int units(Expr.Units u, String text) {
        dev.domino.runtime.internal.scan.ByteDfa loop = unitLoops.computeIfAbsent(u.unit(), k ->
                new dev.domino.compiler.automata.DfaBuilder(grammar.rules()::get).build(new Expr.Repeat(k, 1, Expr.Repeat.UNBOUNDED)).dfa());
        int q = loop.start(), n = 0;
        for (byte b : text.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            if (q == loop.start() || loop.isAccepting(q)) n++;
            q = loop.step(q, b & 0xFF);
            if (q < 0) return -1;
        }
        return n;
    }

    /** One generation run. */
    private final class Gen {
        final Random random;
        final StringBuilder out = new StringBuilder();

        Gen(Random random) { this.random = random; }

        boolean frugal(int depth) { return depth > maxDepth || out.length() > maxLength; }

        /** Appends a sentence of {@code e}; {@code lexical} = inside a terminal. */
        void emit(Expr e, boolean lexical, int depth) {
            if (e instanceof Expr.Ref r) {
                Expr body = grammar.rules().get(r.name());
                if (body == null) throw new GrammarException("undefined rule '" + r.name() + "'", r.line(), r.column());
                boolean lexicalRule = grammar.lexicalRules().contains(r.name());
                emit(body, lexical || lexicalRule, depth + 1);
                if (lexicalRule && !lexical) maybeIgnored(); // a terminal occurrence ended
            } else if (e instanceof Expr.Seq s) {
                for (Expr x : s.items()) emit(x, lexical, depth);
            } else if (e instanceof Expr.Alt a) {
                emit(choose(a.options(), depth), lexical, depth);
            } else if (e instanceof Expr.Repeat rep) {
                int n = rep.min();
                if (height(rep.body()) < INF && !frugal(depth)) {
                    // geometric extra count, mean ~1.5, capped at max
                    while ((rep.max() == Expr.Repeat.UNBOUNDED || n < rep.max()) && random.nextInt(5) < 3) n++;
                }
                for (int i = 0; i < n; i++) emit(rep.body(), lexical, depth);
            } else if (e instanceof Expr.Units u) {
                // the pattern's sentences until one has an allowed number of units (later tries frugal: short)
                int mark = out.length();
                for (int attempt = 0; attempt < 64; attempt++) {
                    out.setLength(mark);
                    emit(u.text(), true, attempt < 32 ? depth : Integer.MAX_VALUE / 4);
                    int n = units(u, out.substring(mark));
                    if (n >= u.min() && n <= u.max()) {
                        if (!lexical) maybeIgnored();
                        return;
                    }
                }
                throw new GrammarException("the sampler found no sentence of " + ExprPrinter.brief(u, 40) + " within its length bounds");
            } else if (e instanceof Expr.Perm p) {
                emitPermutation(p, lexical, depth);
            } else if (e instanceof Expr.UniqueArray u) {
                emitDistinct(u, depth);
            } else if (e instanceof Expr.Chars c) {
                out.appendCodePoint(pick(c.set()));
                if (!lexical) maybeIgnored();
            } else if (e instanceof Expr.Literal lit) {
                out.append(lit.text());
                if (!lexical) maybeIgnored();
            } else if (e instanceof Expr.Automaton a) {
                emitAutomaton(a.dfa(), depth);
                if (!lexical) maybeIgnored();
            } else {
                // token references are not text, and a lazy expression's samples need its automaton:
                // refuse instead of writing a sentence that is not one
                throw new GrammarException("the sampler cannot write " + ExprPrinter.brief(e, 40)
                        + " (token references and lazy expressions are not supported)");
            }
        }

        /**
         * A random walk from the start: where the state accepts it stops with probability 1/4 (at once
         * once frugal or after 32 code points), else it takes a random range and code point; frugal or
         * long, it takes only ranges one step nearer to acceptance, so the walk ends.
         */
        void emitAutomaton(dev.domino.compiler.ir.CodePointAutomaton dfa, int depth) {
            int[] dist = distancesToAccept(dfa);
            int q = dfa.start();
            for (int steps = 0; ; steps++) {
                boolean hurry = frugal(depth) || steps >= 32;
                if (dfa.isAccepting(q) && (hurry || random.nextInt(4) == 0)) return;
                List<Integer> ranges = new ArrayList<>();
                for (int r = dfa.firstRange(q); r < dfa.endRange(q); r++) {
                    if (!hurry || dist[dfa.target(r)] == dist[q] - 1) ranges.add(r);
                }
                if (ranges.isEmpty()) return; // an accepting state without ranges (a minimal automaton's states are live)
                int r = ranges.get(random.nextInt(ranges.size()));
                out.appendCodePoint(pick(dev.domino.compiler.ir.CodePointSet.range(dfa.lo(r), dfa.hi(r))));
                q = dfa.target(r);
            }
        }

        /**
         * The required members, each optional one with probability 1/2 and a few others (none once
         * frugal), then optional ones dropped down to maxCount or the lowest unchosen ones (then
         * others) added up to minCount, in a random order, separated.
         */
        void emitPermutation(Expr.Perm p, boolean lexical, int depth) {
            List<Expr> chosen = new ArrayList<>();
            List<Expr> dropped = new ArrayList<>(); // optional members and others: may go or come for the counts
            List<Expr> unchosen = new ArrayList<>();
            boolean frugal = frugal(depth);
            for (Expr.Perm.Member m : p.members()) {
                if (m.required()) chosen.add(m.body());
                else if (height(m.body()) >= INF) continue;
                else if (!frugal && random.nextBoolean()) dropped.add(m.body());
                else unchosen.add(m.body());
            }
            boolean others = p.hasOther() && height(p.other()) < INF;
            if (others && !frugal) {
                while (random.nextInt(5) < 2) dropped.add(p.other());
            }
            java.util.Collections.shuffle(dropped, random);
            int room = p.maxCount() == Expr.Repeat.UNBOUNDED ? Integer.MAX_VALUE : p.maxCount() - chosen.size();
            for (Expr x : dropped) if (room-- > 0) chosen.add(x);
            unchosen.sort(java.util.Comparator.comparingInt(SentenceSampler.this::height));
            for (int i = 0; chosen.size() < p.minCount(); i++) {
                if (i < unchosen.size()) chosen.add(unchosen.get(i));
                else if (others) chosen.add(p.other());
                else throw new IllegalStateException("a permutation without enough members for its minimum count");
            }
            java.util.Collections.shuffle(chosen, random);
            boolean separate = p.hasSeparator() && height(p.separator()) < INF;
            for (int i = 0; i < chosen.size(); i++) {
                if (i > 0 && separate) emit(p.separator(), lexical, depth);
                emit(chosen.get(i), lexical, depth);
            }
        }

        /**
         * An array of distinct items: items sampled one by one, a sample equal (JSON equality, {@link JsonValues})
         * to an earlier item tried again, up to 16 times; the array ends at a random count from minItems on, or
         * where no new value was found (below minItems the sampler gives up). With {@link #duplicates} an item
         * may instead copy an earlier one on purpose.
         */
        void emitDistinct(Expr.UniqueArray u, int depth) {
            emit(u.open(), false, depth);
            List<String> texts = new ArrayList<>();
            List<com.fasterxml.jackson.databind.JsonNode> values = new ArrayList<>();
            while (true) {
                if (!texts.isEmpty() && duplicatePercent > 0 && random.nextInt(100) < duplicatePercent) {
                    emit(u.separator(), false, depth);
                    out.append(texts.get(random.nextInt(texts.size())));
                    break;
                }
                String item = null;
                for (int attempt = 0; attempt < 16 && item == null; attempt++) {
                    int mark = out.length();
                    if (height(u.itemAt(texts.size())) >= INF) break;
                    emit(u.itemAt(texts.size()), false, depth);
                    String text = out.substring(mark);
                    out.setLength(mark);
                    com.fasterxml.jackson.databind.JsonNode v = JsonValues.parse(text);
                    if (v == null) throw new GrammarException("an item of an array of distinct items is not JSON: " + text);
                    if (!JsonValues.among(v, values)) { item = text; values.add(v); }
                }
                if (item == null) {
                    if (texts.size() < u.minItems()) throw new GrammarException("the sampler found no " + (texts.size() + 1) + "th distinct item");
                    break;
                }
                if (!texts.isEmpty()) emit(u.separator(), false, depth);
                out.append(item);
                texts.add(item);
                boolean more = u.maxItems() == Expr.Repeat.UNBOUNDED || texts.size() < u.maxItems();
                if (!more || texts.size() >= u.minItems() && (frugal(depth) || random.nextInt(5) >= 3)) break;
            }
            emit(u.close(), false, depth);
        }

        Expr choose(List<Expr> options, int depth) {
            if (frugal(depth)) {
                Expr best = null;
                int bestH = INF;
                for (Expr x : options) {
                    int h = height(x);
                    if (h < bestH) { best = x; bestH = h; }
                }
                if (best == null) throw new IllegalStateException("no derivable option");
                return best;
            }
            List<Expr> ok = new ArrayList<>();
            for (Expr x : options) if (height(x) < INF) ok.add(x);
            if (ok.isEmpty()) throw new IllegalStateException("no derivable option");
            return ok.get(random.nextInt(ok.size()));
        }

        /** Sometimes one or two pieces of ignored text. */
        void maybeIgnored() {
            List<Expr> ign = grammar.ignored();
            if (ign.isEmpty()) return;
            while (random.nextDouble() < ignoreProbability) {
                Expr e = ign.get(random.nextInt(ign.size()));
                if (height(e) >= INF) return;
                emit(e, true, maxDepth - 2); // shallow: ignored text is meant to be short
                if (random.nextBoolean()) return;
            }
        }

        int pick(CodePointSet set) {
            // Mostly ASCII, sometimes a showcase multi-byte char, sometimes anything of a given length.
            int roll = random.nextInt(10);
            if (roll < 6) {
                CodePointSet ascii = set.intersect(CodePointSet.range(0x20, 0x7E));
                if (ascii.isEmpty()) ascii = set.intersect(CodePointSet.range(0, 0x7F));
                if (!ascii.isEmpty()) return uniform(ascii);
            } else if (roll < 8) {
                int cp = SHOWCASE[random.nextInt(SHOWCASE.length)];
                if (set.contains(cp)) return cp;
            }
            int[][] byLength = {{0, 0x7F}, {0x80, 0x7FF}, {0x800, 0xFFFF}, {0x10000, CodePointSet.MAX}};
            int[] r = byLength[random.nextInt(4)];
            CodePointSet part = set.intersect(CodePointSet.range(r[0], r[1]));
            return uniform(part.isEmpty() ? set : part);
        }

        int uniform(CodePointSet set) {
            long k = (long) (random.nextDouble() * set.size());
            for (int i = 0; i < set.rangeCount(); i++) {
                long n = set.hi(i) - set.lo(i) + 1L;
                if (k < n) return (int) (set.lo(i) + k);
                k -= n;
            }
            return set.hi(set.rangeCount() - 1);
        }
    }

    /** Inserts, deletes, replaces or swaps a few code points: usually no longer a sentence. */
    public static String mutate(String s, Random random) {
        String pool = "{}[]()\",:;.+-*/=<>!?&|^%$#@~`' \t\n\\_aZ09é€中\uD83D\uDE00";
        int[] poolCps = pool.codePoints().toArray();
        List<Integer> cps = new ArrayList<>();
        s.codePoints().forEach(cps::add);
        int ops = 1 + random.nextInt(3);
        for (int i = 0; i < ops; i++) {
            int kind = random.nextInt(4);
            if (cps.isEmpty()) kind = 0;
            int at = random.nextInt(cps.size() + (kind == 0 ? 1 : 0));
            switch (kind) {
                case 0 -> cps.add(at, poolCps[random.nextInt(poolCps.length)]);
                case 1 -> cps.remove(at);
                case 2 -> cps.set(at, poolCps[random.nextInt(poolCps.length)]);
                default -> {
                    if (at + 1 < cps.size()) { int t = cps.get(at); cps.set(at, cps.get(at + 1)); cps.set(at + 1, t); }
                    else cps.remove(at);
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int cp : cps) sb.appendCodePoint(cp);
        return sb.toString();
    }
}
