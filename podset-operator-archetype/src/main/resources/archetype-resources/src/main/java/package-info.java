/** The ${kind} operator: its main and the controllers it registers. */
package ${package};
