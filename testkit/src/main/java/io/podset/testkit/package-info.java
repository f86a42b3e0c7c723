/**
 * A fake Kubernetes API server for tests: {@link io.podset.testkit.FakeApiServer}, a real HTTP/1.1
 * server on 127.0.0.1 (Vert.x) that the fabric8 client and {@code kubectl} use as a cluster. The
 * testkit needs no test framework; its JUnit 5 extension, {@code @WithFakeApiServer} (and
 * {@code @WithRealApiServer}, {@code @WithSimulatedCluster}), is in the artifact {@code
 * io.podset:testkit-junit5}, package {@code io.podset.testkit.junit5}.
 *
 * <h2>Where things are</h2>
 *
 * <p>This package is the API a test touches: {@link io.podset.testkit.FakeApiServer} and its
 * builder, {@link io.podset.testkit.FaultInjector} with {@link io.podset.testkit.FaultRule} and
 * {@link io.podset.testkit.Fault}, {@link io.podset.testkit.RequestJournal} with {@link
 * io.podset.testkit.RequestRecord} and {@link io.podset.testkit.RequestMatcher}, {@link
 * io.podset.testkit.SimulatedKubelet} with {@link io.podset.testkit.KubeletOptions}, {@link
 * io.podset.testkit.StoreSnapshot}, {@link io.podset.testkit.ReconcileHarness}, {@link
 * io.podset.testkit.RbacGrants} (RBAC manifests against the journal) and {@link
 * io.podset.testkit.Eventually}; {@link io.podset.testkit.envtest} starts a real kube-apiserver
 * (and a whole simulated cluster) behind the same kind of client, and {@link
 * io.podset.testkit.FaultProxy} puts the same fault rules and journal in front of any API server.
 * Its package-private classes assemble the server and implement the fault injector and the journal.
 * The rest lives in rooms under {@code io.podset.testkit.internal}, which are not API (public only
 * for each other). They are layered: a room uses only rooms of the layers below it, so there is no
 * circle between them ({@code RoomLayersTest} holds them to this), and only the simulated kubelet
 * uses API types (it implements {@link io.podset.testkit.SimulatedKubelet}). From the bottom:
 *
 * <ol start="0">
 *   <li>{@code internal.resource}: the resource types, their registry and rule contracts, server
 *       metadata, {@code Status} errors, JSON helpers; {@code internal.watch}: the wire form of a
 *       watch (the frame of one event, shared by every watch that sends it, and the sink a
 *       transport implements).
 *   <li>{@code internal.http}: a request and its answer as handlers see them, request parsing, the
 *       request pipeline and its filters, the Vert.x front end; {@code internal.store}: the object
 *       store, its history, snapshots and selectors; {@code internal.tables}: the {@code Table}
 *       columns of each kind; {@code internal.codec}: protobuf request bodies and schemas.
 *   <li>{@code internal.read}: get, list and watch sessions over the store; {@code
 *       internal.admission}: the built-in kinds and those from CRDs, with their defaulting and
 *       validation, CRD and schema rules; {@code internal.proxy}: the fault proxy's forwarding to
 *       the server behind it.
 *   <li>{@code internal.write}: creates, updates, patches, server-side apply and managed fields,
 *       deletes, scale, field validation; {@code internal.openapi}: the OpenAPI v3 documents (the
 *       real 1.34 documents of the built-in kinds, trimmed to what is served, and those built for
 *       each CRD version), their index and hashes.
 *   <li>{@code internal.controllers}: the garbage collector and namespace controller, the CRD
 *       controller and the simulated kubelet; {@code internal.auth}: authentication (admin and
 *       ServiceAccount tokens, impersonation), the RBAC authorizer over the store's roles and
 *       bindings, ClusterRole aggregation, the bootstrap ClusterRoles, TokenRequest and the
 *       self-subject reviews, as a request filter.
 *   <li>{@code internal.routes}: the router from paths to reads, writes and watches, discovery
 *       (plain and aggregated), the OpenAPI routes with their HTTP caching.
 * </ol>
 *
 * <p>A request goes from {@code http} through the filters (journal, faults, {@code auth}) to {@code
 * routes}, then to the reads ({@code read}) or the writes ({@code write}, which apply the {@code
 * admission} rules of the kind) and the store, which tells each commit to the open watch sessions
 * and the controllers. This package assembles the rooms and is above them all.
 *
 * <h2>What is emulated</h2>
 *
 * <ul>
 *   <li>One global, monotonic resourceVersion; a write that changes nothing keeps it; lists carry
 *       {@code <Kind>List} and their snapshot revision.
 *   <li>{@code Status} errors with Kubernetes' reasons and codes: 404 NotFound (object, namespace,
 *       path), 409 AlreadyExists and Conflict (stale resourceVersion on PUT/PATCH, {@code /status},
 *       {@code /scale}, delete preconditions), 422 Invalid with field causes (names, labels, pod
 *       containers, CRD definitions, OpenAPI schemas), 400 BadRequest (malformed bodies, selectors,
 *       query values, strict field validation), 405, 410 Expired, 415, 504 for a future
 *       resourceVersion.
 *   <li>Built-in kinds: core/v1 namespaces, pods, configmaps, secrets, services, serviceaccounts,
 *       events, nodes, persistentvolumeclaims, persistentvolumes, endpoints, resourcequotas,
 *       limitranges, podtemplates, replicationcontrollers; apps/v1 deployments, replicasets,
 *       statefulsets, daemonsets, controllerrevisions; batch/v1 jobs, cronjobs; policy/v1
 *       poddisruptionbudgets; autoscaling/v2 horizontalpodautoscalers; networking.k8s.io/v1
 *       ingresses, ingressclasses, networkpolicies; discovery.k8s.io/v1 endpointslices;
 *       scheduling.k8s.io/v1 priorityclasses; storage.k8s.io/v1 storageclasses;
 *       coordination.k8s.io/v1 leases; events.k8s.io/v1 events; rbac.authorization.k8s.io/v1;
 *       admissionregistration.k8s.io/v1 webhook configurations; apiextensions.k8s.io/v1 CRDs. Each
 *       with the real server's scope, short names, categories, status/scale subresources and {@code
 *       generation}; a DELETE without a policy orphans the dependents of Jobs and
 *       ReplicationControllers, as on a real server.
 *   <li>Request bodies in JSON, YAML or, for built-in kinds, Kubernetes protobuf (what {@code
 *       kubectl create namespace|configmap|secret|deployment|...} sends), read through the
 *       Kubernetes 1.34 {@code generated.proto} schemas and stored as the JSON the API server would
 *       write (embedded Go structs such as a Volume's source flat; an empty string in a pointer
 *       field, a Lease's {@code holderIdentity: ""}, kept), except that zero numbers and {@code
 *       false} the client sent are kept (the encoding cannot tell them from unset); a protobuf
 *       field unknown to 1.34 is a 400, never dropped. Responses are always JSON.
 *   <li>{@code fieldValidation}: fields an object's type does not declare (built-in kinds: their
 *       1.34 protobuf schema; custom resources: metadata and the CRD's schema) are dropped, with a
 *       {@code Warning: 299} header each under {@code Warn} (the default; one header,
 *       comma-separated), silently under {@code Ignore}, or refused under {@code Strict} with the
 *       real server's 400 message.
 *   <li>Watches over chunked HTTP and WebSocket: synthetic ADDED for RV unset or "0", resume from a
 *       revision, selector enter/leave as ADDED/DELETED, {@code timeoutSeconds}, periodic
 *       bookmarks, an ERROR event with 410 beyond the history window, {@code sendInitialEvents}
 *       ending with the {@code k8s.io/initial-events-end} bookmark, Table rows for {@code kubectl
 *       get -w}.
 *   <li>Lists: {@code limit}/{@code continue} over one snapshot (410 once it left the history),
 *       {@code remainingItemCount}, {@code resourceVersionMatch} Exact and NotOlderThan, the full
 *       label-selector grammar, field selectors ({@code metadata.name}, {@code metadata.namespace},
 *       and per kind: pods, secrets, namespaces, nodes, events, CRD {@code selectableFields}); any
 *       other field is a 400.
 *   <li>Defaulting of built-in kinds as Kubernetes 1.34 does it, checked against kube-apiserver by
 *       the conformance suite: pods and pod templates (restart/DNS policy, scheduler, grace period,
 *       security context, pull policy by tag, termination message fields, {@code resources: {}},
 *       {@code TCP} ports, probe timings, volume modes, canonical quantities; for pods requests
 *       copied from limits, {@code enableServiceLinks}, the QoS class, the not-ready/unreachable
 *       tolerations of DefaultTolerationSeconds, priority 0 and {@code PreemptLowerPriority});
 *       Deployments, ReplicaSets, StatefulSets, DaemonSets (template generation annotation),
 *       ReplicationControllers, PodTemplates, Jobs (generated selector and labels), CronJobs and
 *       their zero statuses; Services (type, session affinity, target ports, traffic policies, IPv4
 *       single-stack families, a cluster IP from {@code 10.96.0.0/12} and node ports from
 *       30000-32767, 422 for addresses in use or a changed cluster IP, allocated values kept by
 *       updates that leave them out); Secrets ({@code stringData} merged into {@code data}); the
 *       {@code kubernetes.io/metadata.name} label of namespaces.
 *   <li>Metadata: uid, creationTimestamp (server clock), generateName, generation bumped only by
 *       changes outside metadata (and status where a status subresource exists); status and scale
 *       subresources.
 *   <li>Resources: namespaces, pods, configmaps, secrets, services, serviceaccounts, nodes, events
 *       (core and events.k8s.io), apps deployments/replicasets/statefulsets/daemonsets, leases,
 *       RBAC kinds, CRDs and any custom resource. A CRD is served (and Established) when its create
 *       returns: scope, versions, subresources, printer columns, short names, categories, and its
 *       OpenAPI v3 schema (types, required, minimum/maximum, enum, pattern, length and item bounds,
 *       defaults, pruning of undeclared fields).
 *   <li>CEL validation rules of CRDs ({@code x-kubernetes-validations}, with {@code dev.cel:cel}),
 *       compiled once per served version when the CRD is written and type-checked against the
 *       schema as kube-apiserver does ({@code self} and {@code oldSelf} have their node's type:
 *       objects with their properties, named as they are or escaped ({@code a__dash__b}, {@code
 *       __namespace__}); maps from {@code additionalProperties}; lists; {@code byte}, {@code date},
 *       {@code date-time} and {@code duration} strings as bytes, timestamp, duration; int-or-string
 *       as dyn; a {@code x-kubernetes-preserve-unknown-fields} object only with its declared
 *       properties; {@code apiVersion}, {@code kind}, {@code metadata.name}/{@code generateName} on
 *       the root and embedded resources). A CRD whose rule or {@code messageExpression} does not
 *       compile (syntax, undefined field, no matching overload), is not a bool (a string), or whose
 *       {@code fieldPath} names no field, is refused with the real 422 causes and cel-go's texts;
 *       rules are evaluated at every level of the schema (object properties, array items, map
 *       values) on each create and update: {@code self}; transition rules reading {@code oldSelf}
 *       only on updates where the old value exists (through object fields, map keys and {@code
 *       x-kubernetes-list-type: map} keys), {@code optionalOldSelf}; ratcheting (a rule without
 *       {@code oldSelf} is not judged again on an unchanged value); {@code message}, {@code
 *       messageExpression} (falling back to the message when it fails), {@code reason} (Invalid,
 *       Forbidden, Required, Duplicate) and {@code fieldPath}, in the real server's causes ({@code
 *       spec.ports[2]: Invalid value: "integer": ...}); rules are not run when the schema found a
 *       wrong type or a missing field (the real server's {@code <nil>} cause instead); a missing
 *       field is cel-go's {@code no such key: x evaluating rule: ...}. Values are typed by the
 *       schema as declared. Functions: the standard library and macros, cel's strings, optional and
 *       sets extensions, and Kubernetes' lists ({@code isSorted}, {@code sum}, {@code min}, {@code
 *       max}, {@code indexOf}, {@code lastIndexOf}), regex ({@code find}, {@code findAll}),
 *       quantity ({@code quantity}, {@code isQuantity}, comparisons, arithmetic, conversions) and
 *       URL ({@code url}, {@code isURL}, getters) libraries.
 *   <li>Discovery ({@code /version} v1.34.x with the emulation and compatibility fields of
 *       kube-apiserver 1.34, the release the conformance suite runs against; our kubectl dispatcher
 *       then runs its built-in 1.32 client, which prints a skew warning only for {@code kubectl
 *       version}), {@code /api}, {@code /apis}, group and group/version documents), aggregated
 *       discovery ({@code apidiscovery.k8s.io/v2} for {@code /api} and {@code /apis}, CRDs
 *       included, as kube-apiserver 1.34 lists them; v2beta1 alone is refused with 406, as 1.34
 *       refuses it), OpenAPI v3 ({@code /openapi/v3} with {@code ?hash=} URLs that change with the
 *       document, the real 1.34 schemas of the built-in kinds trimmed to the resources and
 *       subresources served, a document per CRD version built from its {@code openAPIV3Schema} as
 *       kube-apiserver builds it and rebuilt when the CRD changes, immutable caching for hashed
 *       URLs, ETag and 304, 301 for a stale hash), so {@code kubectl explain} prints what it prints
 *       against a real server, Table output honouring CRD printer columns and, for pods,
 *       deployments, services and nodes, the real server's computed columns (READY, STATUS with
 *       container reasons, RESTARTS, AGE, ...; wide columns always included), JSON merge patch and
 *       JSON patch.
 *   <li>Events: core/v1 and events.k8s.io/v1 share one store, converted field by field as the real
 *       server does; field selectors use each API's field names.
 *   <li>Deletion: finalizers and {@code deletionTimestamp} for every object (no new finalizers once
 *       deleting), DELETE preconditions (uid, resourceVersion), {@code propagationPolicy}
 *       Background, Foreground ({@code foregroundDeletion}: the owner waits for dependents with
 *       {@code blockOwnerDeletion}) and Orphan ({@code orphan}: dependents lose the reference);
 *       owner-reference garbage collection (an owner in another namespace counts as absent);
 *       namespace deletion (Terminating, 403 for new content, contents deleted); {@code dryRun=All}
 *       for create, update, patch and delete (no revision, no event).
 *   <li>Strategic merge patch for built-in kinds and server-side apply with {@code managedFields}
 *       and conflicts (limits below).
 *   <li>For tests: a {@link io.podset.testkit.ReconcileHarness} that runs a reconciler in the
 *       runtime's controller until it is quiet and reports reconciles, errors and writes; {@link
 *       io.podset.testkit.FakeApiServer#snapshot()} and {@code restore} of the whole store (the
 *       differences are replayed as ordinary changes with new resourceVersions).
 *   <li>Graceful deletion of pods: a DELETE of a pod bound to a node sets {@code deletionTimestamp}
 *       (now plus the requested grace period or {@code terminationGracePeriodSeconds}, default 30
 *       s) and {@code deletionGracePeriodSeconds}; a second DELETE may shorten it; {@code
 *       gracePeriodSeconds=0}, unbound pods and terminated pods are removed at once.
 *   <li>A {@link io.podset.testkit.SimulatedKubelet} (off by default): pods are bound, Running and
 *       Ready after configurable delays on the server's clock, or never ready, failed,
 *       crash-looping or unschedulable by rule or annotation; deleting pods are removed when their
 *       grace period ends.
 *   <li>A {@link io.podset.testkit.RequestJournal} of every request (verb, resource, namespace,
 *       name, user agent, status, duration, injected fault) with assertions on counts since a mark,
 *       and a {@link io.podset.testkit.FaultInjector}: rules by verb, resource, subresource,
 *       namespace, name, n-th call, probability and time window that answer 409, 410, 429 with
 *       Retry-After, 5xx or 504, add latency, compact the history, end watch streams, break the
 *       connection in the middle of an answer or of a watch event, or hold back or delay the events
 *       of open and new watches; a status or latency rule that names no resource also covers {@code
 *       /version} and discovery (credentials refused everywhere).
 * </ul>
 *
 * <h2>What is not emulated</h2>
 *
 * <ul>
 *   <li>RBAC is enforced only with {@link io.podset.testkit.FakeApiServer.Builder#enforceRbac()}
 *       (otherwise every request may do anything). With it: bearer tokens only (the admin's and
 *       those of TokenRequest, which are opaque strings, not signed JWTs, and carry no {@code
 *       credential-id} extra; no client certificates, OIDC or webhook authentication); bound tokens
 *       ({@code boundObjectRef}) are not invalidated with their object; the bootstrap policy holds
 *       only {@code cluster-admin}, {@code system:discovery}, {@code system:basic-user}, {@code
 *       system:public-info-viewer} and {@code system:service-account-issuer-discovery} with their
 *       bindings (not the aggregated {@code admin}/{@code edit}/{@code view} nor the components'
 *       roles); escalation prevention (a role or binding may grant only what its writer holds,
 *       unless it has {@code escalate}/{@code bind}) is checked on the object a write sends, or for
 *       a patch on its dry-run result, before validation (the real server checks in storage, so
 *       which of two errors a bad write gets may differ) and also for writes that only change owner
 *       references or finalizers; a SelfSubjectRulesReview lists the bindings' rules ordered by
 *       binding name (the real server's order varies); review answers carry no {@code
 *       managedFields}; a TokenReview answers only for the API server's audience and says {@code
 *       invalid bearer token} for an expired token too (the real server names the expiry); the
 *       review and TokenRequest endpoints are not listed in discovery. Role changes apply at once
 *       (the real authorizer's informers lag a moment). {@code kubectl} sends no credentials to the
 *       fake: client-go applies a kubeconfig's user (token, {@code --as}) only over TLS and the
 *       fake speaks plain HTTP, so with RBAC enforced kubectl is {@code system:anonymous}; the
 *       fabric8 configurations ({@code clientConfig()}, {@code serviceAccountConfig}, {@code
 *       userConfig}) send theirs. Admission webhooks, quotas, limit ranges, API priority and
 *       fairness; TLS (plain HTTP only); protobuf and YAML responses (requests may be protobuf or
 *       YAML, answers are JSON only: an informer that asks for its watch in protobuf, as
 *       controller-runtime's and client-go's do for built-in kinds, takes JSON from the fake); CBOR
 *       in either direction.
 *   <li>The namespace controllers of kube-controller-manager beyond termination: a new namespace
 *       gets no {@code default} ServiceAccount and no {@code kube-root-ca.crt} ConfigMap (the real
 *       server's root CA publisher adds one to every namespace; lists of ConfigMaps on a real
 *       cluster show it, the fake's do not).
 *   <li>Garbage collection and namespace termination run synchronously after the write that
 *       triggers them (Kubernetes' controllers act a moment later, so clients must not rely on
 *       either timing); owner references are resolved by uid only (apiVersion, kind and name are
 *       not checked); there is no {@code /finalize} subresource (a terminating namespace goes when
 *       it is empty and its {@code metadata.finalizers} are); objects in a terminating namespace
 *       with finalizers keep it Terminating, without the namespace's status conditions.
 *   <li>Strategic merge patch: merge keys are chosen by list field name (see {@code
 *       StrategicMerge}), not from OpenAPI schemas; {@code $setElementOrder} and {@code
 *       $retainKeys} are ignored; custom resources get 415 as on Kubernetes.
 *   <li>Server-side apply: the configuration is merged (strategic for built-in kinds, JSON merge
 *       for custom resources, whose lists are atomic); each manager's {@code Apply} entry records
 *       the leaf fields it applied; ordinary creates, updates and patches record {@code Update}
 *       entries (manager from {@code fieldManager} or the User-Agent's product; {@code subresource:
 *       status} for status writes) and take over the fields they change; a changed value of a field
 *       in another manager's entry is a 409 with the real message unless {@code force}; a field a
 *       manager stops applying is removed unless another manager owns it. Entries are in the real
 *       order (Apply first, then by time). Not modelled: the {@code "."} markers of FieldsV1,
 *       ownership of list elements and maps as such (only leaves are owned), metadata fields
 *       besides labels, annotations and finalizers, {@code Update} entries of the scale subresource
 *       and of the server's own writes (garbage collector), {@code x-kubernetes-list-type} and map
 *       types from schemas, apply via {@code application/apply-patch+cbor}.
 *   <li>{@code dryRun=All} computes the full result (validation, defaults, preconditions) but does
 *       not run admission (there is none) and does not cascade to dependents.
 *   <li>Fault injection cannot make a request hang beyond its latency (a dropped watch ends cleanly
 *       with the final chunk or a WebSocket close; a cut one breaks only over chunked HTTP, a
 *       WebSocket just closes); latency is real time, not the server's clock; event faults match on
 *       the watch request's resource and namespace only.
 *   <li>The simulated kubelet models no probes, images, volumes, resources, init container runs
 *       (init containers are reported Completed at start), eviction, node objects or node status;
 *       one node name serves every pod; its writes bypass the request pipeline.
 *   <li>Schemas of built-in kinds (only the checks listed above), immutable fields (but a Service's
 *       cluster IP), defaulting of kinds not listed above (persistent volumes and claims, say), a
 *       named {@code priorityClassName} (its value is not looked up), the dropping of zero values a
 *       real server's typed decoding omits, the storage-protection finalizers a real server puts on
 *       claims and volumes, dual-stack and {@code --service-cluster-ip-range} choices (the real
 *       server of the conformance suite allocates from 10.0.0.0/24, the fake from 10.96.0.0/12),
 *       the ServiceAccount token and default ServiceAccount controllers and admission, any
 *       controller or scheduler (pods stay Pending unless the simulated kubelet is enabled).
 *   <li>Conversion between versions: custom resource versions are served with the stored fields and
 *       the requested apiVersion (strategy None). Events converted from one API show only the
 *       fields they have (a real server also writes the other API's zero values, such as {@code
 *       "firstTimestamp": null}).
 *   <li>Warning headers for deprecated APIs (no served version is deprecated); the descriptions of
 *       built-in table columns are shortened.
 *   <li>In OpenAPI v2 ({@code /openapi/v2}, JSON or protobuf, read by kubectl 1.27 and 1.28 for
 *       apply, edit, diff and explain): the real server's document of the built-in kinds as is,
 *       neither trimmed to what the fake serves nor listing custom resources (kubectl 1.27 and 1.28
 *       explain them from v3); the protobuf forms of OpenAPI v3 and of aggregated discovery (406
 *       and a fall-back to the next {@code Accept} entry, where the real server serves them); in
 *       the OpenAPI index, the entries of the group documents ({@code apis/apps}) and of {@code
 *       version} and the OIDC endpoints; a CRD's document follows the fake's copy of its schema
 *       (the real server also drops fields its structural-schema conversion does not keep);
 *       subresources other than status and scale (logs, exec, eviction, binding, proxy), which are
 *       neither served nor in discovery or OpenAPI.
 *   <li>Of CEL rules: the cost estimator and the runtime cost budget ({@code dev.cel:cel} has
 *       neither a cost estimator nor a runtime cost tracker; the real server refuses a CRD whose
 *       rule's estimated cost, or whose schema's total, exceeds its budget, e.g. {@code self.all(x,
 *       self.all(y, x == y))} over a list without {@code maxItems}, and stops rules at a write's
 *       runtime budget; the fake accepts and runs them: size your schemas with {@code
 *       maxItems}/{@code maxProperties}/{@code maxLength} and check on a real server); the
 *       generated struct type names in checker errors ({@code selfType.o}, the real server's {@code
 *       selfType<n>.o} has a random number); the texts of evaluation errors other than a missing
 *       field (cel-java's words, not cel-go's; {@code no such overload} included); the order of
 *       causes (the real server's is Go map order, random); the strings library's {@code format},
 *       {@code strings.quote} versions, the {@code ip}/{@code cidr}, {@code semver} and authorizer
 *       libraries; CRD validation ratcheting of the OpenAPI schema checks (only CEL rules ratchet).
 *   <li>A future resourceVersion answers 504 at once (no wait); watch caches, etcd compaction by
 *       time (the history window counts changes), the CRD Established condition being asynchronous.
 * </ul>
 */
@NullMarked
package io.podset.testkit;

import org.jspecify.annotations.NullMarked;
