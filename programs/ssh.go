package programs

// OpenSSH: ssh, scp, sftp, ssh-keygen. Some ssh options run local programs
// (ProxyCommand, LocalCommand, KnownHostsCommand), and so can the
// configuration files they name. The option letters that take a value are
// OpenSSH 9's getopt strings.

const (
	whyPKCS11    = "names a PKCS#11 or security-key provider, a shared library the program loads, whose code runs inside it"
	whySSHOption = "sets an ssh option, and some run local programs (ProxyCommand, LocalCommand, KnownHostsCommand)"
	whySSHConfig = "names the configuration file ssh reads, whose options can run local programs"
)

// sshRows are the ExecTool's refusals for ssh, scp and sftp alike, besides
// their code options.
var sshRows = []Row{
	{Short: "S", Why: "it names the program or control socket ssh uses (scp -S, sftp -S run the named program)"},
	{Short: "D", Why: "sftp -D runs the named program as the server"},
	{Short: "b", Why: "sftp -b reads a batch file, whose !commands run locally"},
	{Short: "I", Why: "it loads the named PKCS#11 shared library, whose code runs inside ssh"},
}

var _ = register(&Program{
	Names: []string{"ssh", "slogin"},
	// -P tag is OpenSSH 9.4's; read as taking no value, an older ssh's
	// next option (-o ProxyCommand=…) is still found.
	Grammar: Grammar{ArgShort: "BbcDEeFIiJLlmOopQRSWw"},
	Commands: []CodeOperands{
		{Skip: 1, What: "the remote command of ssh (the operands after the host)", Why: "the remote host's shell runs"},
	},
	Code: []CodeOption{
		{Short: "o", Kind: CodeRuns, Why: whySSHOption,
			ExecWhy: "it sets ssh options, some of which run local programs (ProxyCommand, LocalCommand, KnownHostsCommand)"},
		{Short: "F", Kind: CodeScriptFile, Why: whySSHConfig, ExecWhy: "it reads an ssh configuration file, which can run local programs"},
		{Short: "I", Kind: CodeScriptFile, Why: whyPKCS11},
	},
	Rows: sshRows,
})

// scp and sftp share their code options but not their letters: scp's -B,
// -R and -s take no value, sftp's do.
var scpCode = []CodeOption{
	{Short: "o", Kind: CodeRuns, Why: whySSHOption,
		ExecWhy: "it sets ssh options, some of which run local programs (ProxyCommand, LocalCommand, KnownHostsCommand)"},
	// The ExecTool's sshRows refuse -S and -D with their own reasons.
	{Short: "S", Kind: CodeRuns, Why: "names the program used for the connection (ssh by default)"},
	{Short: "D", Kind: CodeRuns, Why: "names the sftp server program to run directly (sftp -D)"},
	{Short: "F", Kind: CodeScriptFile, Why: whySSHConfig, ExecWhy: "it reads an ssh configuration file, which can run local programs"},
}

var _ = register(&Program{
	Names:   []string{"scp"},
	Grammar: Grammar{ArgShort: "cDFiJloPSX"},
	Code:    scpCode,
	Rows:    sshRows,
})

var _ = register(&Program{
	Names:   []string{"sftp"},
	Grammar: Grammar{ArgShort: "BbcDFiJloPRSsX"},
	Code:    scpCode,
	Rows:    sshRows,
})

// getopt letters of OpenSSH 9.2's ssh-keygen that take a value.
var _ = register(&Program{
	Names: []string{"ssh-keygen"},
	// -K (download resident keys) takes none.
	Grammar: Grammar{ArgShort: "abCDEFfGIJjMmNnOPrSsTtVwYZz"},
	Code: []CodeOption{
		{Short: "Dw", Kind: CodeScriptFile, Why: whyPKCS11,
			ExecWhy: "it loads the named PKCS#11 or security-key provider, a shared library whose code runs inside ssh-keygen"},
	},
})

// ssh-add -s and -e name a PKCS#11 provider, -S a security-key provider:
// shared libraries ssh-add (or the agent) loads.
var _ = register(&Program{
	// No grammar: ssh-add asks the agent before it reads its options, so
	// TestConfirm cannot confirm one; its code letters are found anyway.
	Names: []string{"ssh-add"},
	Code: []CodeOption{
		{Short: "seS", Kind: CodeScriptFile, Why: whyPKCS11,
			ExecWhy: "it loads the named PKCS#11 or security-key provider, a shared library whose code runs inside ssh-add or the agent"},
	},
})
