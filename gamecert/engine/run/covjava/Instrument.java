/*
 * gamecert's bytecode rewriter for Java candidates (the guided phase, issue 47), with the ASM
 * library (Debian's libasm-java). Run once per candidate, in the build sandbox:
 *
 *   java -cp TOOL:asm.jar gamecertcov.Instrument IN OUT SITES
 *
 * Every .class file under IN is written under OUT with its conditional jumps, its LCMP, FCMPx and
 * DCMPx, its switches and its calls of String.equals, equalsIgnoreCase, startsWith, endsWith,
 * contains, compareTo and hashCode routed through gamecertcov.Cov (Cov.java), which does what the
 * instruction did and records it. Nothing else changes: no new branch target, so the stack map
 * frames stay as javac wrote them. SITES gets one row per site the evidence can name:
 * ID TAB TAKEN TAB CLASS TAB METHOD TAB LINE TAB WHAT (the line from the class's line table).
 */
package gamecertcov;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

public final class Instrument {
    static final String COV = "gamecertcov/Cov";
    static final String[] JUMPS = {
        "IFEQ", "IFNE", "IFLT", "IFGE", "IFGT", "IFLE", "IF_ICMPEQ", "IF_ICMPNE", "IF_ICMPLT",
        "IF_ICMPGE", "IF_ICMPGT", "IF_ICMPLE", "IF_ACMPEQ", "IF_ACMPNE"
    };

    private int next = 0;
    private final PrintWriter sites;

    private Instrument(PrintWriter sites) {
        this.sites = sites;
    }

    public static void main(String[] args) throws IOException {
        Path in = Paths.get(args[0]), out = Paths.get(args[1]);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(in)) {
            files = walk.filter(p -> p.toString().endsWith(".class")).sorted()
                .collect(Collectors.toList());
        }
        try (PrintWriter table = new PrintWriter(Files.newBufferedWriter(Paths.get(args[2])))) {
            Instrument rewriter = new Instrument(table);
            for (Path file : files) {
                Path target = out.resolve(in.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.write(target, rewriter.rewrite(Files.readAllBytes(file)));
            }
        }
    }

    byte[] rewrite(byte[] data) {
        ClassReader reader = new ClassReader(data);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        String owner = reader.getClassName().replace('/', '.');
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig,
                                             String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, desc, sig, exceptions);
                if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) return mv;
                return new Method(mv, owner, name);
            }
        }, 0);
        return writer.toByteArray();
    }

    /** A new site: ``sides`` are pairs (TAKEN, WHAT) of one jump (both under one id), or, for a
     * switch, one pair per case (each under an id of its own); none for a comparison. */
    int site(String owner, String method, int line, boolean jump, String... sides) {
        int id = next;
        next += jump ? 1 : Math.max(1, sides.length / 2);
        for (int i = 0; i + 1 < sides.length; i += 2) {
            int at = jump ? id : id + i / 2;
            sites.println(at + "\t" + sides[i] + "\t" + owner + "\t" + method + "\t" + line + "\t"
                + sides[i + 1]);
        }
        return id;
    }

    /** What came just before a jump: its operand is a comparison's result or a boolean. */
    private enum Last { OTHER, COMPARED, BOOLEAN }

    private final class Method extends MethodVisitor {
        private final String owner, name;
        private int line = 0;
        private Last last = Last.OTHER;

        Method(MethodVisitor mv, String owner, String name) {
            super(Opcodes.ASM9, mv);
            this.owner = owner;
            this.name = name;
        }

        private void push(int v) {
            if (v >= -1 && v <= 5) super.visitInsn(Opcodes.ICONST_0 + v);
            else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) super.visitIntInsn(Opcodes.BIPUSH, v);
            else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) super.visitIntInsn(Opcodes.SIPUSH, v);
            else super.visitLdcInsn(v);
        }

        private void call(String method, String desc) {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, COV, method, desc, false);
        }

        @Override
        public void visitLineNumber(int line, Label start) {
            this.line = line;
            super.visitLineNumber(line, start);
        }

        @Override
        public void visitLabel(Label label) {
            last = Last.OTHER;
            super.visitLabel(label);
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            boolean nullTest = opcode == Opcodes.IFNULL || opcode == Opcodes.IFNONNULL;
            if (opcode == Opcodes.GOTO || opcode == Opcodes.JSR
                || (opcode > Opcodes.IF_ACMPNE && !nullTest)) {
                last = Last.OTHER;
                super.visitJumpInsn(opcode, label);
                return;
            }
            String word = nullTest ? (opcode == Opcodes.IFNULL ? "IFNULL" : "IFNONNULL")
                : JUMPS[opcode - Opcodes.IFEQ];
            int id = site(owner, name, line, true, "1", word + " jump taken", "0",
                word + " jump not taken");
            push(id);
            push(opcode);
            if (opcode <= Opcodes.IFLE) {
                call(last == Last.OTHER ? "iz" : "bz", "(III)Z");
            } else if (opcode <= Opcodes.IF_ICMPLE) {
                call("ii", "(IIII)Z");
            } else if (nullTest) {
                call("an", "(Ljava/lang/Object;II)Z");
            } else {
                call("aa", "(Ljava/lang/Object;Ljava/lang/Object;II)Z");
            }
            last = Last.OTHER;
            super.visitJumpInsn(Opcodes.IFNE, label);
        }

        @Override
        public void visitInsn(int opcode) {
            switch (opcode) {
                case Opcodes.LCMP:
                    push(site(owner, name, line, false));
                    call("lc", "(JJI)I");
                    last = Last.COMPARED;
                    return;
                case Opcodes.FCMPL: case Opcodes.FCMPG:
                    push(site(owner, name, line, false));
                    push(opcode == Opcodes.FCMPL ? -1 : 1);
                    call("fc", "(FFII)I");
                    last = Last.COMPARED;
                    return;
                case Opcodes.DCMPL: case Opcodes.DCMPG:
                    push(site(owner, name, line, false));
                    push(opcode == Opcodes.DCMPL ? -1 : 1);
                    call("dc", "(DDII)I");
                    last = Last.COMPARED;
                    return;
                default:
                    last = Last.OTHER;
                    super.visitInsn(opcode);
            }
        }

        private void switched(int[] keys, Label dflt, Label[] labels) {
            List<Integer> cases = new ArrayList<>();
            for (int i = 0; i < keys.length; i++) if (labels[i] != dflt) cases.add(keys[i]);
            java.util.Collections.sort(cases);
            String[] sides = new String[2 * cases.size() + 2];
            for (int i = 0; i < cases.size(); i++) {
                sides[2 * i] = "1";
                sides[2 * i + 1] = "switch case " + cases.get(i);
            }
            sides[2 * cases.size()] = "1";
            sides[2 * cases.size() + 1] = "switch default";
            int base = site(owner, name, line, false, sides);
            super.visitInsn(Opcodes.DUP);
            push(base);
            super.visitLdcInsn(cases.stream().map(String::valueOf).collect(Collectors.joining(",")));
            call("sw", "(IILjava/lang/String;)V");
            last = Last.OTHER;
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            int[] keys = new int[labels.length];
            for (int i = 0; i < keys.length; i++) keys[i] = min + i;
            switched(keys, dflt, labels);
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            switched(keys, dflt, labels);
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String method, String desc,
                                    boolean itf) {
            if (opcode == Opcodes.INVOKEVIRTUAL && owner.equals("java/lang/String")) {
                String to = null, as = null;
                switch (method + desc) {
                    case "equals(Ljava/lang/Object;)Z":
                        to = "seq"; as = "(Ljava/lang/String;Ljava/lang/Object;I)Z"; break;
                    case "equalsIgnoreCase(Ljava/lang/String;)Z":
                        to = "sic"; as = "(Ljava/lang/String;Ljava/lang/String;I)Z"; break;
                    case "startsWith(Ljava/lang/String;)Z":
                        to = "ssw"; as = "(Ljava/lang/String;Ljava/lang/String;I)Z"; break;
                    case "endsWith(Ljava/lang/String;)Z":
                        to = "sew"; as = "(Ljava/lang/String;Ljava/lang/String;I)Z"; break;
                    case "contains(Ljava/lang/CharSequence;)Z":
                        to = "sct"; as = "(Ljava/lang/String;Ljava/lang/CharSequence;I)Z"; break;
                    case "compareTo(Ljava/lang/String;)I":
                        to = "scmp"; as = "(Ljava/lang/String;Ljava/lang/String;I)I"; break;
                    case "hashCode()I":
                        call("sh", "(Ljava/lang/String;)I");
                        last = Last.OTHER;
                        return;
                    default:
                        break;
                }
                if (to != null) {
                    push(site(this.owner, name, line, false));
                    call(to, as);
                    last = desc.endsWith(")Z") ? Last.BOOLEAN : Last.OTHER;
                    return;
                }
            }
            super.visitMethodInsn(opcode, owner, method, desc, itf);
            last = desc.endsWith(")Z") ? Last.BOOLEAN : Last.OTHER;
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            super.visitTypeInsn(opcode, type);
            last = opcode == Opcodes.INSTANCEOF ? Last.BOOLEAN : Last.OTHER;
        }

        @Override
        public void visitVarInsn(int opcode, int var) {
            last = Last.OTHER;
            super.visitVarInsn(opcode, var);
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            last = Last.OTHER;
            super.visitIntInsn(opcode, operand);
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String field, String desc) {
            super.visitFieldInsn(opcode, owner, field, desc);
            last = desc.equals("Z") && (opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC)
                ? Last.BOOLEAN : Last.OTHER;
        }

        @Override
        public void visitLdcInsn(Object value) {
            last = Last.OTHER;
            super.visitLdcInsn(value);
        }

        @Override
        public void visitIincInsn(int var, int increment) {
            last = Last.OTHER;
            super.visitIincInsn(var, increment);
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String desc,
                                           org.objectweb.asm.Handle bsm, Object... args) {
            super.visitInvokeDynamicInsn(name, desc, bsm, args);
            last = desc.endsWith(")Z") ? Last.BOOLEAN : Last.OTHER;
        }

        @Override
        public void visitMultiANewArrayInsn(String desc, int dims) {
            last = Last.OTHER;
            super.visitMultiANewArrayInsn(desc, dims);
        }
    }
}
