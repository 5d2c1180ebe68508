"""The vocabulary of rulemodels, declared once: algorithm names, rule forms, built-in solvers and every default.

The estimator (:class:`~rulemodels.BooleanRuleClassifier`),
:class:`~rulemodels.BooleanRuleCV`, the experiment grid
(:func:`rulemodels.experiments.make_grid`) and the command line read their
names and default values from here, so that a default changed here changes
everywhere at once, and the command line's ``--help`` says what the library
does. The lower layers (``rulemodels.models``, ``rulemodels.algorithms``)
take these values as required arguments and declare none of their own.

This module imports no other module but :mod:`solvers.defaults` (the solver
names, declared there once; standard library only), so the command line reads
it without loading numpy, pandas, Pyomo or scikit-learn (a test checks it).
"""

from __future__ import annotations

from solvers.defaults import BUILTIN_SOLVERS, DEFAULT_SOLVER

__all__ = [
    "ALGORITHMS",
    "BUILTIN_SOLVERS",
    "CG_BEAM_WIDTH",
    "CG_FALLBACK_SEARCHES",
    "CG_FALLBACK_WIDTH",
    "CLASS_ORDERS",
    "CG_CLAUSE_COST",
    "CG_COLUMNS_PER_ROUND",
    "CG_MAX_CLAUSE_LENGTH",
    "CG_PRICING_MIP_MAX_NONZEROS",
    "CG_PRICING_MIP_SOLVES",
    "CG_SELECTION",
    "CG_SELECTION_STARTS",
    "CG_SELECTION_GAP",
    "CG_GROUP_ROWS",
    "CG_STALL_ROUNDS",
    "CG_SELECTION_TIME_LIMIT",
    "CV_SELECTIONS",
    "DEFAULT_ALGORITHM",
    "DEFAULT_ALLOW_DISABLE",
    "DEFAULT_CLASS_ORDER",
    "DEFAULT_CV",
    "DEFAULT_CV_ALGORITHMS",
    "DEFAULT_CV_SELECTION",
    "DEFAULT_DISABLE_COST",
    "DEFAULT_FOLDS",
    "DEFAULT_FORM",
    "DEFAULT_FORMS",
    "DEFAULT_HIGH_CARDINALITY",
    "DEFAULT_MAX_ITER",
    "DEFAULT_NAN",
    "DEFAULT_POLISH",
    "CLASS_WEIGHT_MODES",
    "DEFAULT_CLASS_WEIGHT",
    "DEFAULT_POLISH_TIME_LIMIT",
    "DEFAULT_N_CLAUSES",
    "DEFAULT_N_CLAUSES_GRID",
    "DEFAULT_N_THRESHOLDS",
    "DEFAULT_SEARCH_ALGORITHMS",
    "DEFAULT_SEARCH_CV",
    "DEFAULT_SEARCH_N_CLAUSES",
    "DEFAULT_N_THETAS",
    "THETA_PATH_RATIO",
    "DEFAULT_SEED",
    "DEFAULT_SIMPLIFY",
    "DEFAULT_SOLVER",
    "DEFAULT_THETA",
    "DEFAULT_THRESHOLDS",
    "BINARIZER_THRESHOLDS",
    "DEFAULT_THETAS",
    "DEFAULT_THETA_UNIT",
    "DEFAULT_TIE_BREAK",
    "PARQUET_SUFFIXES",
    "SOLVER_INDEPENDENT_TIE_BREAK",
    "STREAM_BATCH_ROWS",
    "STREAM_EXACT_DISTINCT",
    "STREAM_SAMPLE_SIZE",
    "STREAM_SEED",
    "SWEEP_ALGORITHMS",
    "SYNTHETIC_KINDS",
    "EXACT_FORMULATIONS",
    "EXACT_SOLVER",
    "FINE_THETAS",
    "FORMS",
    "FORMS_AND_AUTO",
    "HIGH_CARDINALITY_POLICIES",
    "ITERATIVE_ALGORITHMS",
    "LP_ALGORITHMS",
    "NAN_POLICIES",
    "POLISH_FORMULATION",
    "THETA_UNITS",
    "THRESHOLD_METHODS",
    "TREE_MIN_LEAF_SHARE",
    "LITERAL_FLOOR_SCALE",
    "DEFAULT_MIN_LITERAL_ROWS",
    "DEFAULT_MIN_LEAF_ROWS",
    "DEFAULT_SEARCH_MIN_LITERAL_ROWS",
]

#: The heuristic learners of the paper (section 4), in the estimator's order:
#: alternating minimization, block coordinate descent, two-level LP relaxation,
#: set covering with simple / redundancy-aware binarization.
LP_ALGORITHMS: tuple[str, ...] = ("am", "bcd", "tlp", "scs", "scn")

#: Every ``algorithm`` of the estimator: the heuristics, column generation (Dash, Günlük & Wei 2018)
#: and the exact 0-1 error MIP (small data only).
ALGORITHMS: tuple[str, ...] = (*LP_ALGORITHMS, "cg", "exact")

#: The algorithms a sweep (``rulemodels cv``/``reproduce``, the experiment grid) offers: the paper's and column generation.
SWEEP_ALGORITHMS: tuple[str, ...] = (*LP_ALGORITHMS, "cg")

#: The algorithms that iterate (``max_iter`` caps them; ``n_iter_`` counts their iterations).
ITERATIVE_ALGORITHMS: tuple[str, ...] = ("am", "bcd")

#: The rule forms: a DNF (OR of ANDs) or a CNF (AND of ORs). Every algorithm learns both
#: (a DNF is learned as a CNF on negated features and labels).
FORMS: tuple[str, ...] = ("dnf", "cnf")

#: ``form`` of the estimator: a form, or ``"auto"`` (both fitted, the one with the lower inner-CV error kept).
FORMS_AND_AUTO: tuple[str, ...] = (*FORMS, "auto")

#: How a rule list (more than two classes) orders its classes (``class_order``): greedily, the class
#: whose step gives the lowest training error with the best default for the rest ("error", K(K+1)/2 - 1
#: binary fits), or the rarest class first and the most frequent as the default ("rarest", K - 1 fits).
CLASS_ORDERS: tuple[str, ...] = ("error", "rarest")

#: The scales of θ (``theta_unit``): a share of the training weight, or the paper's misclassified samples.
THETA_UNITS: tuple[str, ...] = ("fraction", "sample")

#: Missing values in X (``nan``): literals false where a column is missing plus ``x is missing``, or refused.
NAN_POLICIES: tuple[str, ...] = ("indicator", "error")

#: Where a numeric column's thresholds come from (``thresholds``): quantiles of its values (no labels),
#: the cut points of a one-column classification tree fitted with the labels, or the union of both.
THRESHOLD_METHODS: tuple[str, ...] = ("quantile", "tree", "quantile+tree")

#: Text columns with one distinct value per row (``high_cardinality``): left out, or kept as categories.
HIGH_CARDINALITY_POLICIES: tuple[str, ...] = ("drop", "keep")

#: ``kind`` of :func:`~rulemodels.datasets.make_rule_data`: correlated numeric columns, a credit-like
#: table with categories and missing values, or the resampled Pima rows of the earlier scaling benchmark.
SYNTHETIC_KINDS: tuple[str, ...] = ("numeric", "mixed", "pima")

#: The formulations of the exact MIP (``rulemodels exact --formulation``).
EXACT_FORMULATIONS: tuple[str, ...] = ("zero_one", "hamming")

#: The solver of the exact MIP on the command line: a MIP solver that proves optimality on small data.
EXACT_SOLVER = "cbc"

#: Every default value of the estimators, the experiment grid and the command line, named after its parameter.
DEFAULT_FORM = "dnf"
DEFAULT_N_CLAUSES = 2
#: θ as a share of the training weight (``theta_unit='fraction'``): a literal must fix 0.2 % of it to be
#: kept, and with column generation a clause of one literal 0.4 % (it costs θ per literal and θ per clause).
#: Chosen on the real tables (benchmarks/studies/results/real_tables.md): at 0.005 column generation learned the
#: constant rule on ISLR Default and modeldata attrition, where a depth-4 tree beats the majority class.
DEFAULT_THETA = 0.002
DEFAULT_THETA_UNIT = "fraction"
#: Column generation: as accurate as AM on the real tables and several times faster (real_tables.md).
DEFAULT_ALGORITHM = "cg"
#: Quantile thresholds per numeric column (9: deciles).
DEFAULT_N_THRESHOLDS = 9
#: How the estimators place the thresholds (one of :data:`THRESHOLD_METHODS`): the cut points of a one-column
#: tree fitted with the labels, which find the tail where a rare class lives (on ISLR Default, 3 % positive, the
#: quantiles gave the constant rule on every fold; benchmarks/studies/results/real_tables.md). FeatureBinarizer itself,
#: which may have no labels, places quantiles by default (BINARIZER_THRESHOLDS).
DEFAULT_THRESHOLDS = "tree"
BINARIZER_THRESHOLDS = "quantile"
#: The label-aware thresholds' trees leave at least this share of a column's weight on each side of a cut
#: (a literal that separates fewer rows can hardly pay its cost at the default θ).
TREE_MIN_LEAF_SHARE = 0.005
#: A floor in rows under θ and under the label-aware cut points' leaves (docs/theta.md, "A floor in rows"): a
#: literal costs at least c(n) = LITERAL_FLOOR_SCALE · ln n training rows ("auto"), the Bayesian information
#: criterion's price of one parameter (½ ln n) with a misclassified row as one unit of the objective; and a tree
#: cut leaves at least that many rows on each side. 2.6 rows on 200 rows, 3.5 on 1,000, 6.1 on 200,000: it binds
#: below about 1,900 rows at θ = 0.002, and a share of the rows, growing like n, takes over above.
LITERAL_FLOOR_SCALE = 0.5
DEFAULT_MIN_LITERAL_ROWS = "auto"
DEFAULT_MIN_LEAF_ROWS = "auto"
#: BooleanRuleCV's min_literal_rows: 0, no floor. The floor guards a θ that no held-out rows checked; the search
#: chooses θ by cross-validation along a path down to one row's share (theta_path). On the bundled datasets a floor
#: of ½ ln n rows in the search was level within noise, and it cost 6 test rows on AER SwissLabor; a floor of one
#: row in the folds' fits moved HMDA and attrition (docs/theta.md).
DEFAULT_SEARCH_MIN_LITERAL_ROWS = 0
DEFAULT_NAN = "indicator"
DEFAULT_HIGH_CARDINALITY = "drop"
DEFAULT_SIMPLIFY = True
DEFAULT_ALLOW_DISABLE = False
DEFAULT_CLASS_ORDER = "error"
#: The cost of the always-true feature that disables a clause, in literals.
DEFAULT_DISABLE_COST = 0.5
#: The clause LPs' deterministic tie-break, in sample weights: feature j's cost grows by
#: tie_break · mean weight · (j + 1) / d, and LP values are snapped to 7 decimals before rounding, so that
#: HiGHS, GLPK and CBC pick the same optimum among equal ones (docs/solvers.md). Off by default (0: the LPs
#: exactly as the paper poses them): on the paper protocol it cost accuracy (liver BCD's mean test error
#: 33.5 -> 34.7 %). ``TrainingWorkspace(..., tie_break=SOLVER_INDEPENDENT_TIE_BREAK)`` turns it on.
DEFAULT_TIE_BREAK = 0.0
#: The tie-break that makes HiGHS, GLPK and CBC learn the same rules on the bundled data (docs/solvers.md).
SOLVER_INDEPENDENT_TIE_BREAK = 1e-3
#: The iteration cap of BCD and AM (the paper's).
DEFAULT_MAX_ITER = 100
#: DEFAULT_SOLVER and BUILTIN_SOLVERS (the solvers with a dedicated adapter) are imported from solvers.defaults.
#: MIP polishing after the heuristic (``polish``): off; True means DEFAULT_POLISH_TIME_LIMIT seconds.
DEFAULT_POLISH = False
#: Exact pruning after every algorithm (``prune``): on. The heuristics stop at a local optimum of their own
#: surrogate and can keep literals that fix one or two training rows while θ asks each literal to fix far more
#: (AM kept category literals touching 1-13 rows on real tables); pruning removes, one at a time, the literal or
#: clause whose removal lowers the 0-1 training objective (weighted errors + θ × literals) most, so it never
#: raises it (rulemodels.algorithms.prune). The paper protocol's experiments call TrainingWorkspace.learn
#: without it and keep the paper's unpruned rules.
DEFAULT_PRUNE = True

#: ``class_weight``: None (every row its sample weight), a {class: weight} dict, or
#: "balanced" (weight n / (K n_c), scikit-learn's rule), multiplied into sample_weight.
CLASS_WEIGHT_MODES = ("balanced",)
DEFAULT_CLASS_WEIGHT = None
#: Seconds of the polishing MIP for ``polish=True`` (docs/polishing.md).
DEFAULT_POLISH_TIME_LIMIT = 10.0
#: The MIP polishing solves: the exact 0-1 error MIP, whose objective (weighted training error + θ × literals)
#: is the one the returned rule is chosen by (docs/polishing.md says why not the Hamming MIP).
POLISH_FORMULATION = "zero_one"
#: The domain constraints (docs/constraints.md): none by default, so a fit is the paper's.
#: ``monotone`` {column: +1 | -1}, ``forbidden_features`` [columns], ``feature_costs`` {column: cost >= 0},
#: ``max_literals_per_clause`` k >= 1, ``model_hook`` callable(handle, info).
DEFAULT_MONOTONE = None
DEFAULT_FORBIDDEN_FEATURES = None
DEFAULT_FEATURE_COSTS = None
DEFAULT_MAX_LITERALS_PER_CLAUSE = None
DEFAULT_MODEL_HOOK = None
#: The estimator parameters that are domain constraints (passed through by BooleanRuleCV and the CLI).
CONSTRAINT_PARAMS = ("monotone", "forbidden_features", "feature_costs", "max_literals_per_clause", "model_hook")
#: Folds of ``form="auto"``'s inner cross-validation.
DEFAULT_CV = 5
#: Folds of BooleanRuleCV's cross-validation (its ``cv``): five, as LassoCV's, each a θ path of its own
#: (ten had been chosen on the bundled datasets of 195-768 rows; on the real tables each fold costs a path).
DEFAULT_SEARCH_CV = 5

#: BooleanRuleCV's default search: column generation along a θ path scaled to the data (``thetas="auto"``,
#: DEFAULT_N_THETAS values) × DEFAULT_SEARCH_N_CLAUSES, in the form of the smaller class (DEFAULT_FORMS), on
#: DEFAULT_SEARCH_CV folds, chosen on the real tables (docs/theta.md, "The defaults are chosen on real tables").
#: The earlier default, one θ and R in both forms, had been chosen on the bundled datasets and underfit tables of
#: thousands of rows.
DEFAULT_SEARCH_ALGORITHMS: tuple[str, ...] = ("cg",)
DEFAULT_THETAS: tuple[float, ...] = (DEFAULT_THETA,)
DEFAULT_SEARCH_N_CLAUSES: tuple[int, ...] = (1, 2, 3, 5)
#: BooleanRuleCV's θ path (``thetas="auto"``, :func:`rulemodels.model_selection.theta_path`): this many θ values
#: from the θ at which no clause pays for itself down to THETA_PATH_RATIO times it (never below one row's share).
DEFAULT_N_THETAS = 8
THETA_PATH_RATIO = 0.01
#: BooleanRuleCV's forms: "minority", the form whose clauses describe the smaller class (DNF when the positive
#: class is the smaller, else CNF; DNF for rule lists), as RIPPER describes the minority class; on the four bundled
#: datasets it is the form of BRCG's best setting on every one (docs/theta.md). forms=("dnf", "cnf") lets it choose,
#: at twice the time (each form is a path), and inner CV on 150-600 rows chose worse.
DEFAULT_FORMS: str | tuple[str, ...] = "minority"
#: A fine θ grid to pass as ``BooleanRuleCV(thetas=FINE_THETAS)``: from "a literal must fix 0.1 % of the
#: rows" (long rules) to 5 % (one or two literals, often none), the range where the learned rules change
#: on the bundled datasets, at about three steps per factor of ten below 1 % (docs/theta.md).
FINE_THETAS: tuple[float, ...] = (0.001, 0.002, 0.003, 0.005, 0.007, 0.01, 0.02, 0.05)
#: The R values ``rulemodels cv`` sweeps when none are named.
DEFAULT_N_CLAUSES_GRID: tuple[int, ...] = (1, 2, 3)
#: How BooleanRuleCV picks among the candidates (its ``selection``): ``"best"``, the best mean CV score;
#: ``"1se"``, the candidate with the fewest literals whose mean is within one standard error of the best.
#: "best" is the default: on the real tables (thousands of rows, a θ path × R = 1, 2, 3, 5) "1se" chose rules
#: of about one literal and was behind "best" where there was signal (SwissLabor 35.1 against 33.7 %, OJ 19.8
#: against 19.4 %, HMDA 10.3 against 10.0 %; benchmarks/studies/results/real_tables.md, docs/theta.md). On the four
#: bundled datasets (150-600 training rows, two candidates) "1se" had been the better one.
CV_SELECTIONS: tuple[str, ...] = ("best", "1se")
DEFAULT_CV_SELECTION = "best"

#: The algorithms ``rulemodels cv`` compares when none are named: the two that iterate, the most accurate.
DEFAULT_CV_ALGORITHMS: tuple[str, ...] = ITERATIVE_ALGORITHMS

#: The experiment runner's seed of the fold shuffle (and of its estimators), so that a sweep can be resumed.
DEFAULT_SEED = 0
#: Folds of the experiment runner's cross-validation (``rulemodels cv``/``reproduce --folds``; the paper's 10).
DEFAULT_FOLDS = 10

#: Column generation (``algorithm="cg"``): the complexity of a clause itself, in literals (the method's ``1 + |k|``).
CG_CLAUSE_COST = 1.0
#: CG: at most this many literals in one clause (the pricing problem's D).
CG_MAX_CLAUSE_LENGTH = 8
#: CG: clauses kept per level of the beam-search pricing.
CG_BEAM_WIDTH = 10
#: CG: when the beam search finds no improving clause, it runs once more with this many single features
#: on its first level (None: every feature, so the best clause of at most two features is found exactly;
#: 0: no second search). Pure two-feature clauses such as "international_plan == yes AND
#: total_intl_calls <= 2" (73 rows of mlc_churn's training fold, all churners) start from a feature whose
#: own reduced cost is poor, which a first level of CG_BEAM_WIDTH features drops. Always on, a first level
#: of 100 features made cells (1,000 features) 4 times slower; as a fallback, with every pair's sums from
#: two matrix products (pair_sums), it costs one search per θ.
CG_FALLBACK_WIDTH: int | None = None
#: CG: at most this many such wide searches per θ (a count: the same rule on any machine). On a fold of
#: mlc_churn one gave 5.3 % test error (none: 9.3 %), two or unlimited no better.
CG_FALLBACK_SEARCHES = 1
#: CG: at most this many new clauses join the master per round.
CG_COLUMNS_PER_ROUND = 5
#: CG: pricing MIPs per fit (a θ path is one fit), at most (tried when the beam search, wide fallback
#: included, finds no improving clause; each is solved to optimality, so the count, not the machine's speed,
#: bounds the work). On carData TitanicSurvival (few distinct rows: the MIP runs) BooleanRuleCV() spent 9 of
#: its 11 s a fold in 48 pricing MIPs; with at most 3 per fit, 2 s, and the same test error on every fold.
CG_PRICING_MIP_SOLVES = 3
#: CG: the pricing MIP is used only up to this many nonzeros (present features over all rows); the
#: beam search alone prices larger data (HiGHS took 2-10 s per pricing MIP on the bundled datasets,
#: and hit 2 s on 70 Pima rows, 6,400 nonzeros, round after round).
CG_PRICING_MIP_MAX_NONZEROS = 2_000
#: CG: how the final clauses are chosen among the generated ones: "local_search" (greedy addition, then
#: drop/add/swap moves while one lowers the objective: deterministic, milliseconds) or "mip" (also the integer
#: program over every generated clause, kept where better; it can take tens of seconds and stop at its time limit).
CG_SELECTION = "local_search"
#: CG: the local search's starts: the empty selection and the best single clauses, CG_SELECTION_STARTS in all.
CG_SELECTION_STARTS = 10
#: CG: seconds and relative gap of the final integer selection over the generated clauses.
CG_SELECTION_TIME_LIMIT = 10.0
CG_SELECTION_GAP = 1e-4
#: CG: above this many (grouped) rows to cover, the master's rows are groups of the rows that the same
#: clauses fail on (``build_cg_master(..., group_rows=True)``: the same optimum, a few hundred rows where
#: 1,000,000 rows have half a million to cover); up to it, one row per row (every result in docs/results was
#: computed so). At 100,000 rows the row-by-row master's integer selection took 9 s of its 10 s, and on a busy
#: machine stopped without a solution.
CG_GROUP_ROWS = 1_000
#: CG: the rounds at one θ end after this many master LPs in a row that did not lower its objective.
#: The master is degenerate on tables with little signal: on a fold of Ecdat Benefits the LP objective
#: stayed where round 2 left it for 86 more rounds, each adding clauses of negative reduced cost (13 s;
#: 0.7 s and the same rule with this rule, and BooleanRuleCV() 14 s a fold instead of 265 s).
CG_STALL_ROUNDS = 5

#: File names read as Parquet (a file with one of these suffixes, or a directory holding such files).
PARQUET_SUFFIXES: tuple[str, ...] = (".parquet", ".pq")
#: Parquet and Dask input (``rulemodels.data._stream``, docs/large_data.md): rows per Parquet record batch.
STREAM_BATCH_ROWS = 65_536
#: Numeric columns with at most this many distinct values get exact thresholds (merged value counts);
#: above it, thresholds come from a uniform sample of STREAM_SAMPLE_SIZE present values (its quantiles, or
#: the label-aware cuts placed from its per-class weights).
STREAM_EXACT_DISTINCT = 100_000
STREAM_SAMPLE_SIZE = 100_000
#: The seed of that sample (the sample, so the thresholds, depend only on it and on the batches).
STREAM_SEED = 0
