// A compile bomb: a constant string doubled 47 times. javac folds constant expressions while
// it checks types, so it builds the string (2^52 characters) in its own heap before it would
// find the constant too long for a class file.
public class BuildBomb {
    static final String S0 = "abcdefghijklmnopqrstuvwxyz012345";
    static final String S1 = S0 + S0;
    static final String S2 = S1 + S1;
    static final String S3 = S2 + S2;
    static final String S4 = S3 + S3;
    static final String S5 = S4 + S4;
    static final String S6 = S5 + S5;
    static final String S7 = S6 + S6;
    static final String S8 = S7 + S7;
    static final String S9 = S8 + S8;
    static final String S10 = S9 + S9;
    static final String S11 = S10 + S10;
    static final String S12 = S11 + S11;
    static final String S13 = S12 + S12;
    static final String S14 = S13 + S13;
    static final String S15 = S14 + S14;
    static final String S16 = S15 + S15;
    static final String S17 = S16 + S16;
    static final String S18 = S17 + S17;
    static final String S19 = S18 + S18;
    static final String S20 = S19 + S19;
    static final String S21 = S20 + S20;
    static final String S22 = S21 + S21;
    static final String S23 = S22 + S22;
    static final String S24 = S23 + S23;
    static final String S25 = S24 + S24;
    static final String S26 = S25 + S25;
    static final String S27 = S26 + S26;
    static final String S28 = S27 + S27;
    static final String S29 = S28 + S28;
    static final String S30 = S29 + S29;
    static final String S31 = S30 + S30;
    static final String S32 = S31 + S31;
    static final String S33 = S32 + S32;
    static final String S34 = S33 + S33;
    static final String S35 = S34 + S34;
    static final String S36 = S35 + S35;
    static final String S37 = S36 + S36;
    static final String S38 = S37 + S37;
    static final String S39 = S38 + S38;
    static final String S40 = S39 + S39;
    static final String S41 = S40 + S40;
    static final String S42 = S41 + S41;
    static final String S43 = S42 + S42;
    static final String S44 = S43 + S43;
    static final String S45 = S44 + S44;
    static final String S46 = S45 + S45;
    static final String S47 = S46 + S46;
    public static void main(String[] args) {
        System.out.println(S47.length());
    }
}
