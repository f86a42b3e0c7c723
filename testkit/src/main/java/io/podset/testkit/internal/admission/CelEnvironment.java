package io.podset.testkit.internal.admission;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.util.regex.Pattern;

/**
 * The CEL environment of CRD validation rules: {@code self} and {@code oldSelf} (an optional with
 * {@code optionalOldSelf}), the standard library with the string, optional and set extensions, and
 * the Kubernetes functions of {@link KubernetesCelFunctions}. Built once; its compilers and runtime
 * are immutable and thread-safe, as are the programs they make.
 */
final class CelEnvironment {

  private static final CelOptions OPTIONS =
      CelOptions.current().enableHeterogeneousNumericComparisons(true).build();

  private static final Pattern SYNTAX_ERROR = Pattern.compile("(?m)^(ERROR: <input>:\\d+:\\d+: )");

  private static final CelCompiler COMPILER = compiler(false);
  private static final CelCompiler OPTIONAL_OLD_SELF_COMPILER = compiler(true);

  private static final CelRuntime RUNTIME =
      CelRuntimeFactory.standardCelRuntimeBuilder()
          .setOptions(OPTIONS)
          .addLibraries(
              CelExtensions.strings(), CelExtensions.optional(), CelExtensions.sets(OPTIONS))
          .addFunctionBindings(KubernetesCelFunctions.bindings())
          .build();

  /** A compiled expression: its program, result type and whether it reads {@code oldSelf}. */
  record Compiled(CelRuntime.Program program, boolean readsOldSelf, String resultType) {}

  private CelEnvironment() {}

  private static CelCompiler compiler(boolean optionalOldSelf) {
    return CelCompilerFactory.standardCelCompilerBuilder()
        .setOptions(OPTIONS)
        .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
        .addVar("self", SimpleType.DYN)
        .addVar("oldSelf", optionalOldSelf ? OptionalType.create(SimpleType.DYN) : SimpleType.DYN)
        .addLibraries(
            CelExtensions.strings(), CelExtensions.optional(), CelExtensions.sets(OPTIONS))
        .addFunctionDeclarations(KubernetesCelFunctions.declarations())
        .build();
  }

  /**
   * Compiles {@code expression}.
   *
   * @throws IllegalArgumentException with cel's error text when it does not compile
   */
  static Compiled compile(String expression, boolean optionalOldSelf) {
    CelCompiler compiler = optionalOldSelf ? OPTIONAL_OLD_SELF_COMPILER : COMPILER;
    CelValidationResult parsed = compiler.parse(expression);
    if (parsed.hasError()) {
      // cel-go names parser errors so; the rest of the text is the same ANTLR grammar's.
      throw new IllegalArgumentException(
          SYNTAX_ERROR.matcher(parsed.getErrorString()).replaceAll("$1Syntax error: "));
    }
    CelValidationResult result = compiler.compile(expression);
    if (result.hasError()) {
      throw new IllegalArgumentException(result.getErrorString());
    }
    try {
      CelAbstractSyntaxTree ast = result.getAst();
      boolean readsOldSelf = false;
      for (CelReference ref : ast.getReferenceMap().values()) {
        readsOldSelf |= ref.name().equals("oldSelf");
      }
      return new Compiled(RUNTIME.createProgram(ast), readsOldSelf, ast.getResultType().name());
    } catch (CelValidationException | CelEvaluationException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }
}
