import java.io.File;
import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.analysis.ILine;
import org.jacoco.core.analysis.IMethodCoverage;
import org.jacoco.core.tools.ExecFileLoader;

/**
 * Lists the code of the reference transport ({@code org.mrconf.transport}, its defect classes left out) that no
 * conformance case ran: each method with a line or branch missed, and the missed lines ({@code 12x}) and partly
 * covered ones ({@code 14p(2)}: two branches missed). Read against the self-validation's execution data, where every
 * case and vector ran against the clean reference and against each defect, a normative line here is a test purpose
 * no case exercises, as the missing test purposes of {@code reports/benchmarks/mutation.md} are, found in seconds
 * rather than in PIT's hours (though without PIT's proof that a case would notice a change there).
 *
 * <p>Usage, after {@code mvn verify} (which leaves {@code conformance-cli/selftest/target/jacoco.exec}), as a
 * single-file program with JaCoCo's core and ASM on the class path:
 *
 * <pre>{@code
 * M=~/.m2/repository; CP=$M/org/jacoco/org.jacoco.core/0.8.15/org.jacoco.core-0.8.15.jar
 * for a in asm asm-commons asm-tree asm-analysis; do CP=$CP:$(ls $M/org/ow2/asm/$a/9.9.1/$a-9.9.1.jar); done
 * java -cp $CP tools/coverage/UncoveredTransport.java conformance-cli/selftest/target/jacoco.exec \
 *     reference-impl/target/classes
 * }</pre>
 */
public final class UncoveredTransport {
    private UncoveredTransport() {}

    public static void main(final String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: UncoveredTransport <jacoco.exec> <reference-impl/target/classes>");
            System.exit(2);
        }
        final ExecFileLoader loader = new ExecFileLoader();
        loader.load(new File(args[0]));
        final CoverageBuilder coverage = new CoverageBuilder();
        new Analyzer(loader.getExecutionDataStore(), coverage).analyzeAll(new File(args[1]));
        for (final IClassCoverage type : coverage.getClasses()) {
            if (!type.getName().startsWith("org/mrconf/transport/") || type.getName().contains("/defects/")) {
                continue;
            }
            final String simple = type.getName().substring("org/mrconf/transport/".length());
            for (final IMethodCoverage method : type.getMethods()) {
                if (method.getLineCounter().getMissedCount() == 0 && method.getBranchCounter().getMissedCount() == 0) {
                    continue;
                }
                final StringBuilder line = new StringBuilder(simple + "." + method.getName() + ":");
                for (int i = method.getFirstLine(); i <= method.getLastLine(); i++) {
                    final ILine at = method.getLine(i);
                    if (at.getStatus() == ICounter.NOT_COVERED) {
                        line.append(' ').append(i).append('x');
                    } else if (at.getStatus() == ICounter.PARTLY_COVERED) {
                        line.append(' ').append(i).append("p(").append(at.getBranchCounter().getMissedCount()).append(')');
                    }
                }
                System.out.println(line);
            }
        }
    }
}
