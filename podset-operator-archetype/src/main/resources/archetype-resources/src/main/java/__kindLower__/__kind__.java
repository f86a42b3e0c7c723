package ${package}.${kindLower};

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A {@code ${kind}} ({@code ${group}/${apiVersion}}, resource {@code ${plural}}). The CRD in {@code
 * deploy/crds/} is generated from this class, its spec and its status.
 */
@Group("${group}")
@Version("${apiVersion}")
@Plural("${plural}")
public class ${kind} extends CustomResource<${kind}Spec, ${kind}Status> implements Namespaced {}
