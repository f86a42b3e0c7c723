/** The {@code ${kind}} API ({@code ${group}/${apiVersion}}) and its controller. */
package ${package}.${kindLower};
