package dev.domino.compiler.ir;

/** Prints IR expressions as compact regex-like text, for names, inspection and errors. */
public final class ExprPrinter {
    private ExprPrinter() {}

    public static String print(Expr e) {
        StringBuilder sb = new StringBuilder();
        print(e, sb, 0, Integer.MAX_VALUE);
        return sb.toString();
    }

    /** Printed form cut to {@code max} characters (stops early: shared subexpressions can print huge). */
    public static String brief(Expr e, int max) {
        StringBuilder sb = new StringBuilder();
        try {
            print(e, sb, 0, max + 1);
        } catch (Full full) {
            // cut below
        }
        String s = sb.toString();
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    private static final class Full extends RuntimeException {
        Full() { super(null, null, false, false); }
    }


    // precedence: 0 = alternation, 1 = sequence, 2 = atom
    private static void print(Expr e, StringBuilder sb, int context, int limit) {
        if (sb.length() > limit) throw new Full();
        if (e instanceof Expr.Literal lit) {
            sb.append('"');
            lit.text().codePoints().forEach(cp -> {
                switch (cp) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    case '\n' -> sb.append("\\n");
                    case '\t' -> sb.append("\\t");
                    case '\r' -> sb.append("\\r");
                    default -> {
                        if (cp < 0x20 || cp == 0x7F) CodePointSet.appendHex(sb.append("\\x"), cp, 2);
                        else sb.appendCodePoint(cp);
                    }
                }
            });
            sb.append('"');
        } else if (e instanceof Expr.Chars c) {
            if (c.set().equals(CodePointSet.ANY)) sb.append('.');
            else c.set().appendTo(sb, limit);
        } else if (e instanceof Expr.Automaton a) {
            sb.append(a.dfa());
        } else if (e instanceof Expr.TokenRef t) {
            sb.append(t.display());
        } else if (e instanceof Expr.Lazy u) {
            sb.append(u.consume() ? "lazy(" : "before(");
            print(u.body(), sb, 0, limit);
            sb.append(')');
        } else if (e instanceof Expr.Units u) {
            sb.append("units{").append(u.min()).append(',').append(u.max()).append("}(");
            print(u.text(), sb, 0, limit);
            sb.append(')');
        } else if (e instanceof Expr.Ref r) {
            sb.append(r.name());
        } else if (e instanceof Expr.Seq s) {
            if (s.items().isEmpty()) { sb.append("()"); return; }
            boolean paren = context > 1 && s.items().size() > 1;
            if (paren) sb.append('(');
            for (int i = 0; i < s.items().size(); i++) {
                if (i > 0) sb.append(' ');
                print(s.items().get(i), sb, 2, limit);
            }
            if (paren) sb.append(')');
        } else if (e instanceof Expr.Alt a) {
            if (a.options().isEmpty()) { sb.append("[]"); return; }
            boolean paren = context > 0 && a.options().size() > 1;
            if (paren) sb.append('(');
            for (int i = 0; i < a.options().size(); i++) {
                if (i > 0) sb.append(" | ");
                print(a.options().get(i), sb, 1, limit);
            }
            if (paren) sb.append(')');
        } else if (e instanceof Expr.Repeat r) {
            print(r.body(), sb, 3, limit);
            if (r.min() == 0 && r.max() == 1) sb.append('?');
            else if (r.min() == 0 && r.max() == Expr.Repeat.UNBOUNDED) sb.append('*');
            else if (r.min() == 1 && r.max() == Expr.Repeat.UNBOUNDED) sb.append('+');
            else if (r.max() == Expr.Repeat.UNBOUNDED) sb.append('{').append(r.min()).append(",}");
            else if (r.min() == r.max()) sb.append('{').append(r.min()).append('}');
            else sb.append('{').append(r.min()).append(',').append(r.max()).append('}');
        } else if (e instanceof Expr.UniqueArray u) {
            // unique<open item sep close; count: min..max>
            sb.append("unique<");
            print(u.open(), sb, 1, limit); sb.append(' ');
            for (Expr p : u.prefix()) { print(p, sb, 1, limit); sb.append(' '); }
            print(u.item(), sb, 1, limit); sb.append(' ');
            print(u.separator(), sb, 1, limit); sb.append(' ');
            print(u.close(), sb, 1, limit);
            sb.append("; count: ").append(u.minItems()).append("..");
            if (u.maxItems() != Expr.Repeat.UNBOUNDED) sb.append(u.maxItems());
            sb.append('>');
        } else if (e instanceof Expr.Perm p) {
            // perm<a, b!, ...; other: o; sep: s>, "!" marking required members
            sb.append("perm<");
            for (int i = 0; i < p.members().size(); i++) {
                if (i > 0) sb.append(", ");
                print(p.members().get(i).body(), sb, 1, limit);
                if (p.members().get(i).required()) sb.append('!');
            }
            if (p.hasOther()) { sb.append("; other: "); print(p.other(), sb, 1, limit); }
            if (p.hasSeparator()) { sb.append("; sep: "); print(p.separator(), sb, 1, limit); }
            if (p.isCounted()) {
                sb.append("; count: ").append(p.minCount()).append("..");
                if (p.maxCount() != Expr.Repeat.UNBOUNDED) sb.append(p.maxCount());
            }
            sb.append('>');
        }
    }
}
