/*
 * gamecert's coverage runtime for Java candidates (the guided phase, issue 47).
 *
 * The candidate's classes, rewritten by Instrument.java, call these methods in place of their
 * conditional jumps, long/float/double comparisons, switches and a few String methods. Each call
 * does what the instruction did and records, in this process: the side each jump took (with its
 * count), up to four operand pairs per comparison site, the closest each site's operands came
 * unequal, the strings compared, and the String.hashCode results (so that a hash compared with a
 * constant can be mapped back to a string by the reader). A shutdown hook writes one line at
 * exit on file descriptor 2, in the format gamecert.engine.run.instrument.read_coverage reads:
 *
 *   @@gcov br=B64(JSON [[site, taken, count]]) cmps=B64([[site, a, b]] + [[site]])
 *          near=B64([[site, distance]]) hs=B64([[string, hash]])
 *
 * What it writes steers the search and is never a verdict.
 */
package gamecertcov;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

public final class Cov {
    private static final int PAIRS = 4;
    private static final int STRINGS = 64;
    private static final int HASHES = 16;
    private static final int CUT = 64;
    /** JSON characters of the sides and of the comparisons at most: the line in base64 stays
     * within the 16 KB of stderr's tail the runner keeps (a program of a few hundred sites) */
    private static final int BR_CHARS = 4000, CMP_CHARS = 2000;

    /** hit counts by site * 2 + (jump taken ? 1 : 0) */
    private static int[] hits = new int[1024];
    /** per comparison site: ran, pair count, kind (0 none, 1 integer, 2 floating), closest */
    private static boolean[] ran = new boolean[512];
    private static byte[] count = new byte[512];
    private static byte[] kind = new byte[512];
    private static long[] near = new long[512];
    private static long[] pa = new long[512 * PAIRS];
    private static long[] pb = new long[512 * PAIRS];
    /** a switch's case constants, parsed once */
    private static int[][] cases = new int[64][];
    private static final String[] strA = new String[STRINGS];
    private static final String[] strB = new String[STRINGS];
    private static final int[] strSite = new int[STRINGS];
    private static int strN;
    private static final String[] hashS = new String[HASHES];
    private static final int[] hashV = new int[HASHES];
    private static int hashN;

    static {
        Arrays.fill(near, -1L);
        Runtime.getRuntime().addShutdownHook(new Hook());
    }

    private Cov() {}

    /** The shutdown hook (a class of its own, not a lambda: a lambda's first use costs a JVM
     * start tens of milliseconds, and so does javac's string concatenation). */
    private static final class Hook extends Thread {
        Hook() {
            super("gamecert-coverage");
        }

        @Override
        public void run() {
            dump();
        }
    }

    // ---- the tables, grown on demand ------------------------------------------------------

    private static synchronized void grow(int site) {
        int n = Math.max(site + 1, ran.length * 2);
        if (hits.length < 2 * n) hits = Arrays.copyOf(hits, 2 * n);
        if (ran.length < n) {
            int old = ran.length;
            ran = Arrays.copyOf(ran, n);
            count = Arrays.copyOf(count, n);
            kind = Arrays.copyOf(kind, n);
            near = Arrays.copyOf(near, n);
            Arrays.fill(near, old, n, -1L);
            pa = Arrays.copyOf(pa, n * PAIRS);
            pb = Arrays.copyOf(pb, n * PAIRS);
        }
    }

    private static void hit(int site, boolean taken) {
        if (site >= ran.length) grow(site);
        hits[2 * site + (taken ? 1 : 0)]++;
    }

    private static void cmp(int site, long a, long b, byte k, long distance) {
        if (site >= ran.length) grow(site);
        ran[site] = true;
        if (a == b) return;
        kind[site] = k;
        long d = distance < 0 ? Long.MAX_VALUE : distance;
        long best = near[site];
        if (best < 0 || d < best) near[site] = d;
        int n = count[site];
        if (n >= PAIRS) return;
        int at = site * PAIRS;
        for (int i = 0; i < n; i++) if (pa[at + i] == a && pb[at + i] == b) return;
        pa[at + n] = a;
        pb[at + n] = b;
        count[site] = (byte) (n + 1);
    }

    private static void icmp(int site, long a, long b) {
        cmp(site, a, b, (byte) 1, a > b ? a - b : b - a);
    }

    private static long ordered(double v) {
        long bits = Double.doubleToLongBits(v);
        return bits < 0 ? Long.MIN_VALUE - bits : bits;
    }

    private static void fcmp(int site, double a, double b) {
        if (a != a || b != b) {
            if (site >= ran.length) grow(site);
            ran[site] = true;
            return;
        }
        long x = ordered(a), y = ordered(b);
        cmp(site, Double.doubleToLongBits(a), Double.doubleToLongBits(b), (byte) 2,
            x > y ? x - y : y - x);
    }

    private static boolean test(int v, int op) {
        switch (op) {
            case 153: return v == 0; // IFEQ
            case 154: return v != 0; // IFNE
            case 155: return v < 0; // IFLT
            case 156: return v >= 0; // IFGE
            case 157: return v > 0; // IFGT
            default: return v <= 0; // IFLE (158)
        }
    }

    // ---- what the rewritten classes call ------------------------------------------------------

    /** IFxx on an int the program computed: the jump, and the int's comparison with 0. */
    public static boolean iz(int v, int site, int op) {
        boolean r = test(v, op);
        hit(site, r);
        icmp(site, v, 0);
        return r;
    }

    /** IFxx on a comparison's result or a boolean: the jump only. */
    public static boolean bz(int v, int site, int op) {
        boolean r = test(v, op);
        hit(site, r);
        return r;
    }

    /** IF_ICMPxx. */
    public static boolean ii(int a, int b, int site, int op) {
        boolean r;
        switch (op) {
            case 159: r = a == b; break;
            case 160: r = a != b; break;
            case 161: r = a < b; break;
            case 162: r = a >= b; break;
            case 163: r = a > b; break;
            default: r = a <= b; break;
        }
        hit(site, r);
        icmp(site, a, b);
        return r;
    }

    /** IF_ACMPxx. */
    public static boolean aa(Object a, Object b, int site, int op) {
        boolean r = op == 165 ? a == b : a != b;
        hit(site, r);
        return r;
    }

    /** IFNULL, IFNONNULL. */
    public static boolean an(Object a, int site, int op) {
        boolean r = op == 198 ? a == null : a != null;
        hit(site, r);
        return r;
    }

    /** LCMP. */
    public static int lc(long a, long b, int site) {
        icmp(site, a, b);
        return Long.compare(a, b);
    }

    /** FCMPL, FCMPG (nan: the result when either is NaN). */
    public static int fc(float a, float b, int site, int nan) {
        fcmp(site, a, b);
        return a > b ? 1 : a == b ? 0 : a < b ? -1 : nan;
    }

    /** DCMPL, DCMPG. */
    public static int dc(double a, double b, int site, int nan) {
        fcmp(site, a, b);
        return a > b ? 1 : a == b ? 0 : a < b ? -1 : nan;
    }

    /** Before a TABLESWITCH or LOOKUPSWITCH: the case taken (sites base .. base + cases, the
     * last the default) and the key against its nearest case constants. */
    public static void sw(int key, int base, String spec) {
        int[] cs = base < cases.length ? cases[base] : null;
        if (cs == null) cs = parse(base, spec);
        int at = Arrays.binarySearch(cs, key);
        hit(at >= 0 ? base + at : base + cs.length, true);
        int ins = at >= 0 ? at : -at - 1;
        if (cs.length <= PAIRS) {
            for (int c : cs) icmp(base, key, c);
        } else {
            for (int i = Math.max(0, ins - 2); i < Math.min(cs.length, ins + 2); i++) {
                icmp(base, key, cs[i]);
            }
        }
    }

    private static synchronized int[] parse(int base, String spec) {
        if (base >= cases.length) cases = Arrays.copyOf(cases, Math.max(base + 1, 2 * cases.length));
        String[] words = spec.isEmpty() ? new String[0] : spec.split(",");
        int[] cs = new int[words.length];
        for (int i = 0; i < cs.length; i++) cs[i] = Integer.parseInt(words[i]);
        Arrays.sort(cs);
        cases[base] = cs;
        return cs;
    }

    // ---- String methods: their results, and the strings compared --------------------------------

    private static String cut(String s) {
        return s.length() > CUT ? s.substring(0, CUT) : s;
    }

    private static synchronized void strings(int site, String a, Object b) {
        if (!(b instanceof CharSequence) || strN >= STRINGS) return;
        String x = cut(a), y = cut(b.toString());
        if (x.equals(y)) return;
        for (int i = 0; i < strN; i++) {
            if (strSite[i] == site && strA[i].equals(x) && strB[i].equals(y)) return;
        }
        strA[strN] = x;
        strB[strN] = y;
        strSite[strN++] = site;
    }

    public static boolean seq(String a, Object b, int site) {
        boolean r = a.equals(b);
        if (!r) strings(site, a, b);
        return r;
    }

    public static boolean sic(String a, String b, int site) {
        boolean r = a.equalsIgnoreCase(b);
        if (!r) strings(site, a, b);
        return r;
    }

    public static boolean ssw(String a, String b, int site) {
        boolean r = a.startsWith(b);
        if (!r && b != null) strings(site, a, b);
        return r;
    }

    public static boolean sew(String a, String b, int site) {
        boolean r = a.endsWith(b);
        if (!r && b != null) strings(site, a, b);
        return r;
    }

    public static boolean sct(String a, CharSequence b, int site) {
        boolean r = a.contains(b);
        if (!r) strings(site, a, b);
        return r;
    }

    public static int scmp(String a, String b, int site) {
        int r = a.compareTo(b);
        if (r != 0) strings(site, a, b);
        return r;
    }

    public static int sh(String s) {
        int h = s.hashCode();
        synchronized (Cov.class) {
            if (hashN < HASHES) {
                String x = cut(s);
                for (int i = 0; i < hashN; i++) if (hashV[i] == h && hashS[i].equals(x)) return h;
                if (x.length() == s.length()) {
                    hashS[hashN] = x;
                    hashV[hashN++] = h;
                }
            }
        }
        return h;
    }

    // ---- the record ---------------------------------------------------------------------------

    private static void quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20 || c > 0x7e) {
                String hex = Integer.toHexString(c);
                out.append("\\u");
                for (int k = hex.length(); k < 4; k++) out.append('0');
                out.append(hex);
            } else out.append(c);
        }
        out.append('"');
    }

    private static void number(StringBuilder out, byte k, long v) {
        if (k == 2) {
            double d = Double.longBitsToDouble(v);
            out.append(d != d || Double.isInfinite(d) ? "null" : Double.toString(d));
        } else {
            out.append(v);
        }
    }

    private static final char[] DIGITS =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".toCharArray();

    /** " NAME=" and the JSON text in base64 (written here: java.util.Base64 is one more class to load). */
    private static void field(StringBuilder out, String name, StringBuilder json) {
        byte[] b = json.toString().getBytes(StandardCharsets.UTF_8);
        out.append(' ').append(name).append('=');
        for (int i = 0; i < b.length; i += 3) {
            int n = Math.min(3, b.length - i);
            int v = (b[i] & 0xff) << 16 | (n > 1 ? (b[i + 1] & 0xff) << 8 : 0) | (n > 2 ? b[i + 2] & 0xff : 0);
            out.append(DIGITS[v >> 18 & 63]).append(DIGITS[v >> 12 & 63]);
            out.append(n > 1 ? DIGITS[v >> 6 & 63] : '=').append(n > 2 ? DIGITS[v & 63] : '=');
        }
    }

    private static synchronized void dump() {
        try {
            StringBuilder br = new StringBuilder("[");
            for (int i = 0; i < hits.length && br.length() < BR_CHARS; i++) {
                if (hits[i] == 0) continue;
                if (br.length() > 1) br.append(',');
                br.append('[').append(i >> 1).append(',').append((i & 1) == 1).append(',')
                    .append(hits[i]).append(']');
            }
            br.append(']');
            StringBuilder cm = new StringBuilder("[");
            int rows = 0;
            for (int s = 0; s < ran.length && rows < 300 && cm.length() < CMP_CHARS; s++) {
                for (int i = 0; i < count[s] && rows < 300; i++, rows++) {
                    if (cm.length() > 1) cm.append(',');
                    cm.append('[').append(s).append(',');
                    number(cm, kind[s], pa[s * PAIRS + i]);
                    cm.append(',');
                    number(cm, kind[s], pb[s * PAIRS + i]);
                    cm.append(']');
                }
            }
            for (int i = 0; i < strN && cm.length() < CMP_CHARS; i++) {
                if (cm.length() > 1) cm.append(',');
                cm.append('[').append(strSite[i]).append(',');
                quote(cm, strA[i]);
                cm.append(',');
                quote(cm, strB[i]);
                cm.append(']');
            }
            for (int s = 0; s < ran.length && cm.length() < CMP_CHARS + 1000; s++) {
                if (!ran[s]) continue;
                if (cm.length() > 1) cm.append(',');
                cm.append('[').append(s).append(']');
            }
            cm.append(']');
            StringBuilder ne = new StringBuilder("[");
            for (int s = 0, n = 0; s < near.length && n < 300 && ne.length() < 1500; s++) {
                if (near[s] < 0) continue;
                if (ne.length() > 1) ne.append(',');
                ne.append('[').append(s).append(',').append(Math.min(near[s], 1L << 62)).append(']');
                n++;
            }
            ne.append(']');
            StringBuilder hs = new StringBuilder("[");
            for (int i = 0; i < hashN && hs.length() < 1000; i++) {
                if (hs.length() > 1) hs.append(',');
                hs.append('[');
                quote(hs, hashS[i]);
                hs.append(',').append(hashV[i]).append(']');
            }
            hs.append(']');
            StringBuilder line = new StringBuilder("\n@@gcov");
            field(line, "br", br);
            field(line, "cmps", cm);
            field(line, "near", ne);
            field(line, "hs", hs);
            line.append('\n');
            FileOutputStream err = new FileOutputStream(FileDescriptor.err);
            err.write(line.toString().getBytes(StandardCharsets.US_ASCII));
            err.flush();
        } catch (Throwable ignored) {
            // the record is a help to the search, never a reason for the program to fail
        }
    }
}
