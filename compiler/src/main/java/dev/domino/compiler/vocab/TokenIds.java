package dev.domino.compiler.vocab;

/**
 * Checks on the token ids a vocabulary file declares. Ids index arrays of the vocabulary's size, so
 * an id is bounded before anything is allocated for it: a rank of 2,000,000,000 in a two-line file
 * would otherwise ask for a 16 GB array.
 */
final class TokenIds {
    private TokenIds() {}

    /**
     * Largest id a vocabulary file may declare. The largest vocabularies in use have about 260,000
     * ids (Gemma: 256,000); 2^24 leaves room and keeps the id arrays below about 130 MB.
     */
    static final int MAX_ID = (1 << 24) - 1;

    /** {@code id} parsed from {@code text}; a clear error for a non-integer, negative or too-large id. */
    static int parse(String text, String where) {
        long id;
        try {
            id = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": token id '" + text.trim() + "' is not an integer");
        }
        return check(id, where);
    }

    static int check(long id, String where) {
        if (id < 0) throw new IllegalArgumentException(where + ": negative token id " + id);
        if (id > MAX_ID) {
            throw new IllegalArgumentException(where + ": token id " + id + " exceeds the largest supported id " + MAX_ID);
        }
        return (int) id;
    }

    /** The EOS ids given on the command line must name tokens of the vocabulary. */
    static void checkEos(int[] eos, int size, String vocabName) {
        if (eos == null) return;
        for (int id : eos) {
            if (id < 0 || id >= size) {
                throw new IllegalArgumentException("EOS id " + id + " is not in " + vocabName + " (ids 0.." + (size - 1) + ")");
            }
        }
    }

    static void checkNotEmpty(int size, String vocabName) {
        if (size == 0) throw new IllegalArgumentException(vocabName + ": the vocabulary has no tokens");
    }
}
