// Checks the properties after generation: archetype:generate applies the descriptor's
// validationRegex only when it prompts, not in batch mode (-DinteractiveMode=false). A bad value
// removes the generated project and fails naming the property and the value.
def props = request.properties
def keywords = ['abstract', 'assert', 'boolean', 'break', 'byte', 'case', 'catch', 'char', 'class',
    'const', 'continue', 'default', 'do', 'double', 'else', 'enum', 'extends', 'final', 'finally',
    'float', 'for', 'goto', 'if', 'implements', 'import', 'instanceof', 'int', 'interface', 'long',
    'native', 'new', 'package', 'private', 'protected', 'public', 'return', 'short', 'static',
    'strictfp', 'super', 'switch', 'synchronized', 'this', 'throw', 'throws', 'transient', 'try',
    'void', 'volatile', 'while']
def problems = []
def kind = props.getProperty('kind')
if (!(kind ==~ /[A-Z][A-Za-z0-9]*/) || keywords.contains(kind.toLowerCase())) {
  problems << "kind must be UpperCamelCase letters and digits, not a Java keyword in lower case: '${kind}'"
}
def group = props.getProperty('group')
if (!(group ==~ /[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+/)) {
  problems << "group must be a DNS subdomain with a dot, such as example.com: '${group}'"
}
def apiVersion = props.getProperty('apiVersion')
if (!(apiVersion ==~ /v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?/)) {
  problems << "apiVersion must look like v1, v1beta1 or v1alpha1: '${apiVersion}'"
}
def plural = props.getProperty('plural')
if (!(plural ==~ /[a-z][a-z0-9]*/)) {
  problems << "plural must be lower-case letters and digits: '${plural}'"
}
if (problems) {
  new File(request.outputDirectory, request.artifactId).deleteDir()
  throw new IllegalArgumentException(problems.join('; '))
}
